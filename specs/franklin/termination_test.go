package franklin

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The measure decreases on every transition, so liveness is decided by it,
// with the verdicts, counterexamples and counts of the state graph, which
// finds no cycle: the rings of TestStateCounts but n = 6 (which
// TestEveryArrangementWithClaims and TestReducedStateCounts decide by the
// measure), with claims, one initiator and channels of capacity 1.
// Reference: 002 §5.5.1.
func TestMeasureDecidesLiveness(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{4, 1, 3, 2}},
		{N: 5, IDs: ring.DescendingIDs(5), Claims: true},
		{N: 5, IDs: []int{1, 3, 5, 2, 4}, Initiators: []int{1}},
		{N: 5, IDs: []int{1, 3, 5, 2, 4}, Cap: 1},
	} {
		spectest.MeasureAgreesWithGraph(t, spectest.Build(t, New, p), fmt.Sprintf("%+v", p))
	}
}

// Every component of the measure is needed: a mutant of the measure with
// one left out is caught on a transition that only that component orders
// (the processes asleep: a start, which sends two ⟨id⟩; the ⟨id⟩ weights: a
// process that stays active; the processes not knowing: an announcement
// relayed; the hops: a relay; the announcements: one back at the winner),
// and the graph then decides, with the same verdicts.
func TestWrongMeasureIsCaught(t *testing.T) {
	sys := spectest.Build(t, New, model.Params{N: 5, IDs: []int{1, 3, 5, 2, 4}})
	want := spectest.MeasureAgreesWithGraph(t, sys, "ids 1,3,5,2,4")
	for drop, step := range []string{"start p", "⟨id", "⟨leader", "⟨id", "⟨leader"} {
		spectest.WrongMeasureIsCaught(t, sys, drop, step, want)
	}
}
