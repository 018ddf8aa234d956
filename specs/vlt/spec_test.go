package vlt

import (
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The state counts pinned in testdata/counts.tsv: the default arrangement
// with every orientation assignment as an initial state, and single
// orientations.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, func(p model.Params) (*model.System[State], error) { return build(p, noFault) })
}

// Variant e defaults to half-duplex links, modified to full-duplex; the
// parameters a run reports say which, and which orientations it started from.
func TestDefaultsAndBadParameters(t *testing.T) {
	for variant, want := range map[string]model.Duplex{"e": model.HalfDuplex, "modified": model.FullDuplex} {
		sys, err := New(model.Params{N: 4, IDs: DefaultIDs(4), Variant: variant})
		if err != nil || sys.Params.Duplex != want || len(sys.Init) != 16 {
			t.Fatalf("%s: links %s, %d initial states, %v", variant, sys.Params.Duplex, len(sys.Init), err)
		}
	}
	bad := []struct {
		p    model.Params
		want string
	}{
		{model.Params{N: 2, IDs: []int{1, 2}}, "at least 3"},
		{model.Params{N: 3, IDs: []int{1, 2, 3}, Chan: model.Bag}, "FIFO"},
		{model.Params{N: 3, IDs: []int{1, 2, 3}, Cap: 2}, "--cap"},
		{model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "f"}, "no variant"},
		{model.Params{N: 3, IDs: []int{1, 2, 3}, Orientation: []bool{true}}, "orientation"},
		{model.Params{N: 17, IDs: ring.DescendingIDs(17)}, "--orientation"},
	}
	for _, c := range bad {
		if _, err := New(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(n=%d %+v) = %v, want an error mentioning %q", c.p.N, c.p.Variant, err, c.want)
		}
	}
}

func TestDefaultIDsAndHeadOnChases(t *testing.T) {
	if got := DefaultIDs(6); !slices.Equal(got, []int{1, 6, 2, 5, 3, 4}) || !slices.Equal(DefaultIDs(5), []int{1, 5, 2, 4, 3}) {
		t.Fatalf("DefaultIDs(6) = %v", got)
	}
	for ids, want := range map[string]bool{"1,3,2,4": true, "1,3,5,2,4": false, "1,2,3,4,5": false, "1,2,4,3,5": true} {
		xs, _ := model.ParseInts(ids)
		if HeadOnChases(xs) != want {
			t.Errorf("HeadOnChases(%s) = %v", ids, !want)
		}
	}
}

// Algorithm E without the §4 modification on full-duplex links elects two
// leaders: two phase-1 messages ⟨4,1⟩ pass each other on one link, and both
// receivers find their own value back, so both inaugurate (§4's case
// α = β). Every orientation shows it; the trace passes through a state in
// which the link holds the two messages.
// Reference: 000 §4 ("u and v will both move into the inauguration state").
func TestEOnFullDuplexLinksElectsTwoLeaders(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Duplex: model.FullDuplex, Claims: true}
	r := run(t, p, noFault)
	want := []string{"at-most-one-leader", "election-complete", "no-same-phase-bypass", "lemma-3-1-arrival-side",
		"prop-3-6-i-one-inauguration", "prop-3-9-one-per-link"}
	if got := failures(&r); !slices.Equal(got, want) {
		t.Fatalf("failed %v, want %v", got, want)
	}
	tr := prop(t, &r, "at-most-one-leader").Trace
	crossed := false
	for _, s := range replay(t, p, noFault, tr) {
		crossed = crossed || bypass(&s)
	}
	last := tr.Steps[len(tr.Steps)-1].Label
	if !crossed || !strings.Contains(last, "⟨4,1⟩") || len(tr.Steps) != 16 {
		t.Fatalf("at-most-one-leader trace (%d steps, crossing %v) ends with %q", len(tr.Steps), crossed, last)
	}
	// On half-duplex links the two messages meet in a processor instead.
	p.Duplex = model.HalfDuplex
	if r := run(t, p, noFault); r.Verdict != checker.Pass {
		t.Fatalf("half-duplex: %v", failures(&r))
	}
}

// The modified version on full-duplex links passes, and Prop. 4.2's
// witness shows two phase-1 messages passing each other on a link.
// Reference: 000 Prop. 4.2.
func TestModifiedShowsABypass(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Variant: "modified", Claims: true}
	r := run(t, p, noFault)
	w := prop(t, &r, "prop-4-2-bypass")
	if r.Verdict != checker.Pass || w.Verdict != checker.Pass {
		t.Fatalf("verdict %s, witness %s, failures %v", r.Verdict, w.Verdict, failures(&r))
	}
	states := replay(t, p, noFault, w.Trace)
	if end := states[len(states)-1]; !bypass(&end) {
		t.Fatal("the witness trace does not end with two messages on one link")
	}
	// Forced onto half-duplex links the witness fails: nothing passes.
	p.Duplex = model.HalfDuplex
	r = run(t, p, noFault, model.WitnessProp("prop-4-2-bypass", "000 Prop. 4.2", "", bypass))
	if w := prop(t, &r, "prop-4-2-bypass"); w.Verdict != checker.Fail {
		t.Fatalf("bypass witness on half-duplex links: %s", w.Verdict)
	}
}

// The phase-0 test read literally deadlocks on half-duplex links (seeds
// README, n = 4, ids 1,3,2,4): a local minimum waits for the link it must
// send on, which holds a phase-1 message it may not take before its test.
// Giving up the activation, as the §2 remark says, elects a leader.
// Reference: 000 §2, the remark at its end.
func TestLiteralPhase0TestDeadlocks(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Orientation: make([]bool, 4)}
	r := run(t, p, literalPhase0Test)
	end := prop(t, &r, "election-complete")
	if end.Verdict != checker.Fail || !end.Trace.Deadlock {
		t.Fatalf("literal test0: %v", failures(&r))
	}
	states := replay(t, p, literalPhase0Test, end.Trace)
	last := &states[len(states)-1]
	stuck := -1
	for i := range last.Proc {
		pr := &last.Proc[i]
		local, dir, waits := (&spec{ids: p.IDs}).phase0Test(last, i)
		if pr.Stage == Phase0 && pr.Sent0 && pr.Got0[0] != 0 && pr.Got0[1] != 0 && local && waits && last.Chans.Head(last.links(), i, dir).P == 1 {
			stuck = i
		}
	}
	if stuck < 0 {
		t.Fatalf("no local minimum stuck before its test with a phase-1 message on its link; trace %+v", end.Trace.Steps)
	}
	if r := run(t, p, noFault); r.Verdict != checker.Pass {
		t.Fatalf("with the give-up: %v", failures(&r))
	}
}

// The scan's code for two equal messages ("PNUM := p; goto inaugurate")
// leaves ID as it was; Prop. 3.6 (iii) then fails at n = 4, and in the
// modified version, whose leader is the id in the ID registers, two
// processors become leaders. Reference: seeds README, "Known slips";
// 000 Prop. 3.6 (iii).
func TestMissingIDAssignmentOnEqualCollision(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Orientation: make([]bool, 4), Claims: true}
	r := run(t, p, noIDOnEqualCollision)
	if got := failures(&r); !slices.Equal(got, []string{"prop-3-6-iii-same-id"}) {
		t.Fatalf("e: failed %v", got)
	}
	p.Variant = "modified"
	r = run(t, p, noIDOnEqualCollision)
	if prop(t, &r, "at-most-one-leader").Verdict != checker.Fail {
		t.Fatalf("modified: failed %v", failures(&r))
	}
}

// The bound in the proof of Prop. 3.9: the largest T with F_T ≤ n.
func TestMaxPhases(t *testing.T) {
	for n, want := range map[int]int{3: 4, 4: 4, 5: 5, 6: 5, 7: 5, 8: 6, 12: 6, 13: 7} {
		if got := MaxPhases(n); got != want {
			t.Errorf("MaxPhases(%d) = %d, want %d", n, got, want)
		}
	}
}
