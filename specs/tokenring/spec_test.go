package tokenring

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func params(n int) model.Params { return model.Params{N: n, IDs: ring.DescendingIDs(n)} }

// The token is at one of n processes, which is idle, waiting or in its
// critical section, and every other process is idle or waiting: n·3·2^(n-1)
// states. Each state enables one token action (pass, enter or leave) and
// one request per idle process: n·(3·2^(n-1) + 3(n-1)·2^(n-2) + 2^(n-1))
// transitions.
func TestCountsFollowTheFormulas(t *testing.T) {
	for _, row := range spectest.CountRows(t) {
		n := row.Params.N
		states := int64(n * 3 << (n - 1))
		trans := int64(n * (3<<(n-1) + 3*(n-1)<<(n-2) + 1<<(n-1)))
		if row.Params.Variant != "" || row.States != states || row.Transitions != trans || row.Terminal != 0 {
			t.Errorf("%s: pins %d states %d transitions %d terminal; the formulas give %d %d 0", row, row.States, row.Transitions, row.Terminal, states, trans)
		}
	}
}

// The rows of testdata/counts.tsv.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// "If the ring is unidirectional there can be neither deadlock nor
// starving, as the token circulates": every request is granted under every
// fairness, none included, since the token's route is forced (no cycle of
// the graph avoids a waiting process's entry), and every process can enter.
// Reference: 002 §4.1.
func TestEveryRequestIsGrantedUnderEveryFairness(t *testing.T) {
	for n := 2; n <= 5; n++ {
		for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
			r := spectest.Run(t, spectest.Build(t, New, params(n)), checker.Options{Fair: f})
			if r.Verdict != checker.Pass {
				t.Fatalf("n=%d, fairness %s: %s, failure %+v", n, f, r.Verdict, r.Failure())
			}
		}
		r := spectest.Run(t, spectest.Build(t, New, params(n)), checker.Options{Fair: model.FairProcess})
		for i := 0; i < n; i++ {
			w := spectest.Prop(t, &r, fmt.Sprintf("can-enter-p%d", i))
			if last := w.Trace.Steps[len(w.Trace.Steps)-1]; !strings.HasPrefix(last.Label, "enter p") {
				t.Fatalf("n=%d: witness for p%d ends with %q", n, i, last.Label)
			}
		}
	}
}

// A mutant in which a waiting process may let the token pass starves: the
// token can go round forever past p0. Weak fairness cannot help, since
// enter is enabled at p0 only while the token is there; the lasso's loop
// passes p0 by.
func TestAWaitingProcessThatPassesTheTokenStarves(t *testing.T) {
	sys := spectest.Build(t, New, params(3))
	pass := &sys.Rules[3]
	pass.Guard = func(s *State, i int) bool { return s.Local[i] != inCS && s.Token == i }
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		r := spectest.Run(t, sys, checker.Options{Fair: f})
		p := spectest.Prop(t, &r, "request-granted-p0")
		if p.Verdict != checker.Fail || p.Trace.LoopStart == nil || spectest.Prop(t, &r, "mutual-exclusion").Verdict != checker.Pass {
			t.Fatalf("fairness %s: request-granted-p0 %s, trace %+v", f, p.Verdict, p.Trace)
		}
		var loop []string
		for _, s := range p.Trace.Steps[*p.Trace.LoopStart:] {
			loop = append(loop, s.Label)
		}
		if got := strings.Join(loop, "; "); !strings.Contains(got, "pass p0") || strings.Contains(got, "enter p0") {
			t.Fatalf("fairness %s: loop %s should pass p0 by", f, got)
		}
	}
}

// A mutant that enters without the token breaks mutual exclusion.
func TestEnteringWithoutTheTokenBreaksMutualExclusion(t *testing.T) {
	sys := spectest.Build(t, New, params(3))
	sys.Rules[1].Guard = func(s *State, i int) bool { return s.Local[i] == waiting }
	r := spectest.Run(t, sys, checker.Options{Fair: model.FairProcess})
	if p := spectest.Prop(t, &r, "mutual-exclusion"); p.Verdict != checker.Fail || len(p.Trace.Steps) != 4 {
		t.Fatalf("mutual-exclusion %s with trace %+v", p.Verdict, p.Trace)
	}
}

func TestParametersItDoesNotHaveAreRefused(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{3, 2, 1}, Initiators: []int{0}},
		{N: 3, IDs: []int{3, 2, 1}, Bound: 2},
		{N: 3, IDs: []int{3, 2, 1}, Variant: "nope"},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// The footprints tell the truth (por.CheckFootprints), and reduction
// keeps every safety verdict, but stores every state: a request at i and
// the token's arrival at i both change i's phase, and any run may bring
// the token to i, so no process's actions are independent of the others'.
func TestReduction(t *testing.T) {
	for n := 2; n <= 5; n++ {
		p := model.Params{N: n, IDs: ring.DescendingIDs(n)}
		spectest.Footprints(t, New, p)
		full, red := spectest.SameVerdicts(t, checker.Of(spectest.Build(t, New, p)), "tokenring")
		if !red.Reduced || red.States != full.States {
			t.Errorf("n=%d: reduced %v, %d states; full %d", n, red.Reduced, red.States, full.States)
		}
	}
}
