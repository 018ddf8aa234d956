package hs

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The measures decrease on every transition of variants raynal and probe,
// so liveness is decided by them, with the verdicts, counterexamples and
// counts of the state graph, which finds no cycle: a ring of 4; rings of
// 3 with claims, one initiator, channels of capacity 1; bags (ring of 2;
// probe also of 3). TestRaynalEveryArrangementWithClaims,
// TestProbeEveryArrangementWithClaims and TestRaynalBagChannelsBreakLemma139
// (where a loser stands again) check that the measures decide every
// arrangement of n ≤ 5 and raynal on bags at n = 3 (measure only: the
// graph of those runs is the larger part of their cost). Reference: 002 §5.3; 004 Theorems 13.8, 13.10.
func TestMeasureDecidesLiveness(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}},
		{N: 3, IDs: []int{1, 3, 2}, Claims: true},
		{N: 3, IDs: []int{1, 3, 2}, Initiators: []int{1}},
		{N: 3, IDs: []int{1, 3, 2}, Cap: 1},
		{N: 2, IDs: []int{1, 2}, Chan: model.Bag},
	} {
		spectest.MeasureAgreesWithGraph(t, raynalSys(t, p), fmt.Sprintf("raynal %+v", p))
		p.Variant = "probe"
		spectest.MeasureAgreesWithGraph(t, probeSys(t, p), fmt.Sprintf("probe %+v", p))
	}
	p := model.Params{N: 3, IDs: []int{3, 2, 1}, Chan: model.Bag, Variant: "probe"}
	spectest.MeasureAgreesWithGraph(t, probeSys(t, p), fmt.Sprintf("probe %+v", p))
}

// Every component of both measures is needed: a mutant of the measure with
// one left out is caught on a transition that only that component orders,
// and the graph then decides, with the same verdicts. raynal: the
// processes not knowing, ⟨ended⟩ relayed (the relay makes a lost process
// not_involved); the phases left, an initiation (which sends two candidatures);
// the hops, a message passed on; the ⟨ended⟩, one back at the winner.
// probe: the processors asleep, a wake; the phase weights, a reply home
// that enters the next phase; the hops, a probe passed on; the undecided,
// ⟨terminate⟩ relayed; the ⟨terminate⟩, one that stops.
func TestWrongMeasureIsCaught(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{3, 1, 4, 2}}
	raynal := raynalSys(t, p)
	want := spectest.MeasureAgreesWithGraph(t, raynal, "raynal")
	for drop, step := range []string{"⟨ended", "initiate p", "⟨candidature", "⟨ended"} {
		spectest.WrongMeasureIsCaught(t, raynal, drop, step, want)
	}
	p.Variant = "probe"
	probe := probeSys(t, p)
	want = spectest.MeasureAgreesWithGraph(t, probe, "probe")
	for drop, step := range []string{"wake p", "⟨reply", "⟨probe", "⟨terminate", "⟨terminate"} {
		spectest.WrongMeasureIsCaught(t, probe, drop, step, want)
	}
}

// raynal-literal declares no measure: a candidate that keeps losing goes
// round its loop for ever (ids 4,1,2,3: p2, TestRaynalLiteralPhasesGrowWithoutBound),
// and the graph finds the cycles. raynal's measure on it is caught, on a
// resume in the last phase the model numbers, and the graph decides the
// same.
func TestRaynalLiteralLoops(t *testing.T) {
	sp, sys, err := buildRaynal(model.Params{N: 4, IDs: []int{4, 1, 2, 3}, Variant: "raynal-literal"})
	if err != nil {
		t.Fatal(err)
	}
	if sys.Termination != nil {
		t.Fatal("raynal-literal declares a termination measure")
	}
	graph := spectest.Run(t, sys, checker.Options{})
	if graph.Liveness == nil || graph.Liveness.Method != checker.ByGraph || graph.Liveness.Cycles == 0 ||
		spectest.Prop(t, &graph, "election-terminates").Verdict != checker.Fail {
		t.Fatalf("liveness %+v, %s", graph.Liveness, spectest.Verdicts(graph))
	}
	sys.Termination = sp.measure()
	r := spectest.Run(t, sys, checker.Options{})
	w := r.WrongMeasure
	if w == nil || r.Liveness == nil || r.Liveness.Method != checker.ByGraph || spectest.Verdicts(r) != spectest.Verdicts(graph) {
		t.Fatalf("wrong measure %+v, liveness %+v, %s", w, r.Liveness, spectest.Verdicts(r))
	}
	if last := w.Trace.Steps[len(w.Trace.Steps)-1].Label; last != "resume p2 (nresp = 2, respOK = F)" {
		t.Fatalf("caught on %q, %v → %v", last, w.Before, w.After)
	}
}
