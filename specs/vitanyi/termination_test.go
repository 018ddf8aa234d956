package vitanyi

import (
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// No run goes on forever: the termination measure decreases on every
// transition, so the state graph has no cycle and every run ends in a
// terminal state, which election-complete checks; liveness is decided by
// the measure, with the state graph's verdicts. Both variants, unbounded
// drift and K = 1 to 3, one initiator or all.
// Reference: 001 §1 ("The correctness and termination of the solution below
// is independent of the timing assumptions").
func TestNoRunGoesOnForever(t *testing.T) {
	for _, p := range []model.Params{
		{IDs: ascendingIDs(3)}, {IDs: ascendingIDs(3), Drift: 1}, {IDs: ascendingIDs(3), Drift: 2}, {IDs: ascendingIDs(3), Drift: 3},
		{IDs: []int{2, 1, 3}, Drift: 2}, {IDs: ascendingIDs(4)}, {IDs: ring.DescendingIDs(4), Drift: 1}, {IDs: []int{1, 3, 2, 4}, Drift: 1},
		{IDs: ascendingIDs(4), Drift: 1, Variant: "scaled"}, {IDs: []int{3, 1, 4, 2}, Drift: 1, Initiators: []int{2}},
	} {
		p.N, p.Claims = len(p.IDs), true
		what := p.String() + " variant " + p.Variant
		sys := build(t, p)
		if p.Drift == 3 { // the graph is left out, to keep the test quick
			r := spectest.Run(t, sys, checker.Options{})
			spectest.DecidedByMeasure(t, &r, what)
			continue
		}
		spectest.MeasureAgreesWithGraph(t, sys, what)
	}
}

// A mutant whose idle tick does not count down loops at a processor that
// holds a message: the measure is caught on that tick, and the graph
// finds the cycle.
func TestIdleTickThatDoesNotCountDownLoops(t *testing.T) {
	sys := build(t, model.Params{N: 3, IDs: ascendingIDs(3)})
	for i := range sys.Rules {
		if sys.Rules[i].Name == "tick" {
			sys.Rules[i].Do = func(*State, int, int) bool { return true }
		}
	}
	r := spectest.Run(t, sys, checker.Options{})
	w := r.WrongMeasure
	if w == nil || r.Liveness == nil || r.Liveness.Method != checker.ByGraph || r.Liveness.Cycles == 0 {
		t.Fatalf("wrong measure %+v, liveness %+v", w, r.Liveness)
	}
	if last := w.Trace.Steps[len(w.Trace.Steps)-1].Label; !strings.HasPrefix(last, "tick p") {
		t.Fatalf("the measure was caught on %q, want a tick", last)
	}
}

// Every component of the measure is needed: a mutant of the measure with
// one left out is caught, and the graph then decides with the same
// verdicts. With K = 2 (ids 3,2,1) each is: the levels by a wake, the
// timers by a tick that counts down (and sends), the messages by a wakeup
// read while awake, the witness's K − Passed by its tick that passes over
// a message not arrived yet, and the others' K − Ahead by another
// processor's tick; with unbounded drift the timers by a tick.
func TestWrongMeasureIsCaught(t *testing.T) {
	for _, c := range []struct {
		drift int
		drop  int
		step  string // what the transition that breaks it does
	}{
		{2, 0, "wake p"}, {2, 1, "tick p"}, {2, 2, "recv p"}, {2, 3, "tick p"}, {2, 4, "tick p"},
		{0, 1, "tick p"},
	} {
		p := model.Params{N: 3, IDs: ring.DescendingIDs(3), Drift: c.drift}
		want := spectest.Run(t, build(t, p), checker.Options{})
		spectest.WrongMeasureIsCaught(t, build(t, p), c.drop, c.step, want)
	}
}
