package vlt

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The measure decreases on every transition of both variants on both kinds
// of link, variant e on full-duplex links included (it elects two leaders,
// but every run ends), so liveness is decided by it; the verdicts and
// counts are those of the state graph, which finds no cycle. Rings: the
// default arrangement of 4 (every orientation); without -short also the
// ring of 8 whose runs reach phase 3 (TestPhaseThreeFirstAtEight), where
// T − PNUM falls furthest, checked by the measure alone.
// Reference: 000 §3, Props. 3.8, 3.9 and 4.2.
func TestMeasureDecidesLiveness(t *testing.T) {
	for _, variant := range []string{"e", "modified"} {
		for _, links := range []model.Duplex{model.HalfDuplex, model.FullDuplex} {
			p := model.Params{N: 4, IDs: DefaultIDs(4), Variant: variant, Duplex: links}
			spectest.MeasureAgreesWithGraph(t, spectest.Build(t, New, p), variant+" links "+links.String())
		}
		if !testing.Short() {
			r := run(t, model.Params{N: 8, IDs: []int{1, 2, 7, 3, 4, 8, 5, 6}, Variant: variant,
				Orientation: make([]bool, 8), Initiators: []int{0}, Claims: true}, noFault)
			spectest.DecidedByMeasure(t, &r, variant+" n=8")
		}
	}
}

// Every component of the measure is needed: a mutant of the measure with
// one left out is caught on a transition that only that component orders
// (the phase-0 steps: send0; the phases left: a relay, which takes one
// phase message and sends one; the phase messages: §4's rule (i), a
// discard; the processors not knowing: an announcement heard; the
// announcements: one dropped), and the graph then decides, with the same
// verdicts. Variant modified, ring 1,5,2,4,3 with one orientation: in
// variant e on half-duplex links no ring of 5 discards or stops a phase
// message or drops an announcement on its own.
func TestWrongMeasureIsCaught(t *testing.T) {
	p := model.Params{N: 5, IDs: DefaultIDs(5), Variant: "modified", Orientation: make([]bool, 5)}
	want := run(t, p, noFault)
	for drop, step := range []string{"send0 p", "recv p", "recv p", "recv p", "recv p"} {
		spectest.WrongMeasureIsCaught(t, spectest.Build(t, New, p), drop, step, want)
	}
}

// A processor that knows the outcome and sends the announcement back (the
// mutant announcementBounces) lets two processors pass it to and fro for
// ever: the measure is caught on a bounce, and the graph finds the cycle.
func TestBouncingAnnouncementBreaksTheMeasure(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "modified", Orientation: make([]bool, 3)}
	r := run(t, p, announcementBounces)
	if r.WrongMeasure == nil || r.Liveness == nil || r.Liveness.Method != checker.ByGraph || r.Liveness.Cycles == 0 {
		t.Fatalf("wrong measure %+v, liveness %+v", r.WrongMeasure, r.Liveness)
	}
	if got := prop(t, &r, "election-terminates").Verdict; got != checker.Fail {
		t.Fatalf("election-terminates %s", got)
	}
}

// The rules have no footprints, so --por does not apply to vlt; a reduced
// run is the full one, decided by the measure (spectest.SameVerdicts).
func TestReducedRunKeepsTheMeasure(t *testing.T) {
	p := model.Params{N: 4, IDs: ring.DescendingIDs(4), Variant: "modified"}
	spectest.SameVerdicts(t, checker.Of(spectest.Build(t, New, p)), "vlt modified n=4")
}
