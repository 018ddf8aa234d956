package simulate_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/changroberts"
)

// counter is a one-process system counting to 3 by inc, with a reset whose
// guard is never true: each run takes inc three times and reaches the
// states 0, 1, 2, 3, the same in every run.
func counter(model.Params) (simulate.System, error) {
	me := func(int) model.Footprint { return model.Footprint{Proc: 0} }
	sys := &model.System[int]{
		Spec: "counter", Procs: 1, Init: []int{0},
		Rules: []model.Rule[int]{
			{Name: "inc", Guard: func(s *int, _ int) bool { return *s < 3 }, Do: func(s *int, _, _ int) bool { *s++; return true }, Footprint: me},
			{Name: "reset", Guard: func(s *int, _ int) bool { return *s > 3 }, Do: func(s *int, _, _ int) bool { *s = 0; return true }, Footprint: me},
		},
		Copy:   func(d, s *int) { *d = *s },
		Encode: func(buf []byte, s *int) []byte { return append(buf, byte(*s)) },
	}
	return simulate.Of(sys), nil
}

// Every step counts as fired; a state counts as new once in the whole
// simulation, the initial state for no rule; a dead rule fires nowhere.
func TestCoverageCountsStepsAndNewStatesOnce(t *testing.T) {
	rep, err := simulate.Simulate(context.Background(), counter, model.Params{N: 1},
		simulate.Options{Seed: 1, Runs: 5, MaxSteps: 100, Workers: 2, Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	want := simulate.Coverage{Runs: 5, Fired: []int64{15, 0}, New: []int64{3, 0}, Distinct: 4}
	if !reflect.DeepEqual(*rep.Coverage, want) {
		t.Errorf("coverage %+v, want %+v", *rep.Coverage, want)
	}
}

// The counts add the runs in the order of their numbers, so that they are
// the same whatever the workers; the fired counts add up to the steps.
func TestCoverageIsTheSameWhateverTheWorkers(t *testing.T) {
	build := func(p model.Params) (simulate.System, error) {
		sys, err := changroberts.New(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}
	p := model.Params{N: 6, IDs: []int{1, 2, 3, 4, 5, 6}, Variant: "all-initiate", Claims: true}
	var got []*simulate.Coverage
	for _, workers := range []int{1, 2} {
		rep, err := simulate.Simulate(context.Background(), build, p,
			simulate.Options{Seed: 5, Runs: 300, MaxSteps: 1000, RandomIDs: true, Workers: workers, Coverage: true})
		if err != nil {
			t.Fatal(err)
		}
		fired := int64(0)
		for _, f := range rep.Coverage.Fired {
			fired += f
		}
		if steps := int64(rep.Steps.Mean*float64(rep.Done) + 0.5); fired != steps {
			t.Errorf("%d workers: %d steps fired, the runs took %d", workers, fired, steps)
		}
		got = append(got, rep.Coverage)
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("1 worker: %+v\n2 workers: %+v", got[0], got[1])
	}
	if got[0].New[0] != 0 {
		t.Errorf("start fired from the initial state only, which all-initiate has taken: new %d", got[0].New[0])
	}
}
