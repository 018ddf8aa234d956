package vlt

import (
	"os"
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// sweepResult is what a sweep over arrangements found for one variant and n.
type sweepResult struct {
	systems, orientations int
	states                int64
	sight
}

// sweep checks the arrangements, each with every orientation assignment
// (nil) or one, with claims on. Every property must pass, and two messages
// of one phase pass on a link exactly when Prop. 4.2's witness is offered
// (HeadOnChases): on full-duplex links and with two chases head-on.
func sweep(t *testing.T, variant string, n int, arrangements [][]int, orientation []bool) sweepResult {
	t.Helper()
	var res sweepResult
	for _, ids := range arrangements {
		p := model.Params{N: n, IDs: ids, Variant: variant, Claims: true, Orientation: orientation}
		o := &observer{n: n}
		r := run(t, p, noFault, o.prop())
		for _, pr := range r.Props {
			if pr.Verdict != checker.Pass && pr.Ref != "test" {
				t.Fatalf("%s ids %v: %s %s", variant, ids, pr.Name, pr.Verdict)
			}
		}
		if variant == "modified" && o.bypass != HeadOnChases(ids) {
			t.Errorf("modified ids %v: a bypass is reachable: %v, HeadOnChases says %v", ids, o.bypass, HeadOnChases(ids))
		}
		if variant == "e" && o.bypass {
			t.Errorf("e on half-duplex links, ids %v: two messages passed on a link", ids)
		}
		res.systems++
		res.orientations += len(ring.InitialOrientations(&p))
		res.states += r.States
		res.merge(o.sight)
	}
	return res
}

// Every arrangement and every orientation assignment of n = 3, 4, 5 passes
// every property and claim: Algorithm E on half-duplex links, the modified
// version on full-duplex links (ArrangementsUpToSymmetry with every
// orientation covers every (arrangement, orientation) pair up to the ring's
// symmetry exactly once). The worst cases found, the same for both
// variants, against Prop. 3.9's bounds (T, the largest T with F_T ≤ n, for
// the phases 0..T-1; 2n + (T-1)n phase messages):
//
//	n  arrangements × orientations  phases (bound)  messages (bound)
//	3   1 ×  8                      2 (4)            9 (15)
//	4   3 × 16                      2 (4)           12 (20)
//	5  12 × 32                      3 (5)           20 (30)
//	6  60 ×  1 (MC_VLT_SIX=1)       3 (5)           24 (36)
//
// No run goes past phase 2, and no phase has two c-active processors, so
// Lemma 3.3 (i) says nothing at these sizes (its mutant test shows it can
// fail). Shared colours (Lemma 3.5), give-ups (test0) and, on full-duplex
// links, bypasses (Prop. 4.2) all occur from n = 4.
// Reference: 000 Lemmas 3.1–3.7, Props. 3.6, 3.9, 4.2.
func TestEveryArrangementAndOrientation(t *testing.T) {
	want := map[int][2]int{3: {2, 9}, 4: {2, 12}, 5: {3, 20}}
	maxN := 5
	if testing.Short() {
		maxN = 4 // n = 5, 12 × 32 systems, is most of the time: CI's race run skips it
	}
	for _, variant := range []string{"e", "modified"} {
		for n := 3; n <= maxN; n++ {
			r := sweep(t, variant, n, ring.ArrangementsUpToSymmetry(n), nil)
			t.Logf("%s n=%d: %d arrangements × %d orientations, %d states: worst %d phases (bound %d), %d messages (bound %d)",
				variant, n, r.systems, r.orientations/r.systems, r.states, r.phases, MaxPhases(n), r.messages, MessageBound(n))
			if got := [2]int{r.phases, r.messages}; got != want[n] {
				t.Errorf("%s n=%d: worst (phases, messages) %v, want %v", variant, n, got, want[n])
			}
			if r.twoCActive {
				t.Errorf("%s n=%d: two c-active processors in a phase; update the doc comment", variant, n)
			}
			if n >= 4 && (!r.shared || !r.givesUp || (variant == "modified") != r.bypass) {
				t.Errorf("%s n=%d: coverage: shared colours %v, give-ups %v, bypasses %v", variant, n, r.shared, r.givesUp, r.bypass)
			}
		}
	}
}

// n = 6 in the test suite: the default arrangement 1,6,2,5,3,4 (three local
// minima) with one orientation (all give isomorphic systems:
// TestOrientationsGiveIsomorphicSystems). MC_VLT_SIX=1 checks all 60
// arrangements up to symmetry (871,232 states for e, 2,239,638 for
// modified: 2,241,894 before §4 rule (i) was applied to a bypassed message
// taken with another, TestMutantsBypassRuleOneTakenWithAnother); its
// figures are the n = 6 row in the doc comment of
// TestEveryArrangementAndOrientation.
func TestSixProcessors(t *testing.T) {
	arrangements := [][]int{DefaultIDs(6)}
	if os.Getenv("MC_VLT_SIX") != "" {
		arrangements = ring.ArrangementsUpToSymmetry(6)
	}
	for _, variant := range []string{"e", "modified"} {
		r := sweep(t, variant, 6, arrangements, make([]bool, 6))
		t.Logf("%s n=6: %d arrangements, %d states: worst %d phases (bound %d), %d messages (bound %d)",
			variant, r.systems, r.states, r.phases, MaxPhases(6), r.messages, MessageBound(6))
		if r.phases > 3 || r.twoCActive {
			t.Errorf("%s n=6: %d phases, two c-active %v", variant, r.phases, r.twoCActive)
		}
	}
}

// All 2^n orientation assignments give systems with the same number of
// states, transitions and terminal states, and the same verdicts: the rules
// treat both ports alike, so relabelling one processor's ports is an
// isomorphism (ring/orientation.go). Here for n = 4 and 5, both variants.
func TestOrientationsGiveIsomorphicSystems(t *testing.T) {
	for _, variant := range []string{"e", "modified"} {
		for _, ids := range [][]int{DefaultIDs(4), {1, 2, 4, 3, 5}} {
			var first checker.Result
			for k, f := range ring.Orientations(len(ids)) {
				r := run(t, model.Params{N: len(ids), IDs: ids, Variant: variant, Orientation: f}, noFault)
				if k == 0 {
					first = r
					continue
				}
				if r.States != first.States || r.Transitions != first.Transitions || r.Terminal != first.Terminal ||
					!slices.Equal(failures(&r), failures(&first)) {
					t.Fatalf("%s ids %v orientation %s: %d/%d/%d states/transitions/terminal, want %d/%d/%d",
						variant, ids, model.FormatOrientation(f), r.States, r.Transitions, r.Terminal, first.States, first.Transitions, first.Terminal)
				}
			}
		}
	}
}

// A relabelling of the ring's description (rotation, or reflection with
// every orientation bit inverted) describes the same ring, so it gives the
// same counts: the reduction ArrangementsUpToSymmetry rests on. E on
// full-duplex links is included so that failing verdicts are compared too.
func TestRingSymmetriesGiveIsomorphicSystems(t *testing.T) {
	ids, f := []int{1, 4, 2, 5, 3}, []bool{false, true, true, false, true}
	for _, links := range []model.Duplex{model.HalfDuplex, model.FullDuplex} {
		base := run(t, model.Params{N: 5, IDs: ids, Duplex: links, Orientation: f}, noFault)
		for _, g := range ring.RingSymmetries(5) {
			gi, gf := g.Apply(ids, f)
			r := run(t, model.Params{N: 5, IDs: gi, Duplex: links, Orientation: gf}, noFault)
			if r.States != base.States || r.Transitions != base.Transitions || !slices.Equal(failures(&r), failures(&base)) {
				t.Fatalf("links %s, %+v: ids %v orientation %s: %d states %d transitions %v; want %d %d %v", links, g, gi,
					model.FormatOrientation(gf), r.States, r.Transitions, failures(&r), base.States, base.Transitions, failures(&base))
			}
		}
	}
}
