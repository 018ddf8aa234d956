package spectest

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// DecidedByMeasure fails the test unless the run r, described by what,
// verified its spec's termination measure on every transition and decided
// liveness by it.
func DecidedByMeasure(t testing.TB, r *checker.Result, what string) {
	t.Helper()
	if r.WrongMeasure != nil || r.Liveness == nil || r.Liveness.Method != checker.ByMeasure {
		t.Fatalf("%s: wrong measure %+v, liveness %+v", what, r.WrongMeasure, r.Liveness)
	}
}

// MeasureAgreesWithGraph runs sys, which must be decided by its termination
// measure, and sys without the measure, which the state graph decides and
// must find acyclic: both must give every property the same verdict and
// counterexample, with the same counts. It returns the measured run.
func MeasureAgreesWithGraph[S any](t testing.TB, sys *model.System[S], what string) checker.Result {
	t.Helper()
	measured := Run(t, sys, checker.Options{})
	DecidedByMeasure(t, &measured, what)
	plain := *sys
	plain.Termination = nil
	graph := Run(t, &plain, checker.Options{})
	if graph.Liveness == nil || graph.Liveness.Method != checker.ByGraph || graph.Liveness.Cycles != 0 {
		t.Fatalf("%s: graph liveness %+v", what, graph.Liveness)
	}
	if Verdicts(measured) != Verdicts(graph) || measured.States != graph.States || measured.Transitions != graph.Transitions {
		t.Fatalf("%s:\nmeasure %s, %d states %d transitions\ngraph   %s, %d states %d transitions", what,
			Verdicts(measured), measured.States, measured.Transitions, Verdicts(graph), graph.States, graph.Transitions)
	}
	for i, p := range measured.Props {
		if got, want := traceLabels(p.Trace), traceLabels(graph.Props[i].Trace); got != want {
			t.Fatalf("%s: %s's counterexample, measure %s, graph %s", what, p.Name, got, want)
		}
	}
	return measured
}

// WrongMeasureIsCaught runs sys with its termination measure less
// component drop (a mutant of the measure) and fails the test unless the
// run reports it wrong on a step whose label contains step, and the
// state graph then decides with the verdicts of the run with the whole
// measure, want.
func WrongMeasureIsCaught[S any](t testing.TB, sys *model.System[S], drop int, step string, want checker.Result) {
	t.Helper()
	mutant := *sys
	value := sys.Termination.Value
	mutant.Termination = &model.Termination[S]{Ref: sys.Termination.Ref, Doc: sys.Termination.Doc, Value: func(buf []int, s *S) []int {
		full := value(nil, s)
		return append(append(buf, full[:drop]...), full[drop+1:]...)
	}}
	r := checker.Run(context.Background(), &mutant, checker.Options{Continue: true})
	w := r.WrongMeasure
	if r.Err != nil || w == nil || r.Liveness == nil || r.Liveness.Method != checker.ByGraph {
		t.Fatalf("%s, component %d left out: not caught (%v): %+v", sys.Variant, drop+1, r.Err, r.Liveness)
	}
	if last := w.Trace.Steps[len(w.Trace.Steps)-1].Label; !strings.Contains(last, step) {
		t.Fatalf("%s, component %d left out: caught on %q (%v → %v), want a step with %q", sys.Variant, drop+1, last, w.Before, w.After, step)
	}
	if Verdicts(r) != Verdicts(want) {
		t.Fatalf("%s, component %d left out: %s, want %s", sys.Variant, drop+1, Verdicts(r), Verdicts(want))
	}
}
