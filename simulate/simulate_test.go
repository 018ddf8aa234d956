package simulate_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/changroberts"
)

// coin is a one-process system that sends a message or stops, each with
// probability 1/2 under a uniformly random scheduler: the messages of a
// run are geometric, P(k) = 2^-(k+1), with mean 1 and variance 2.
func coin(model.Params) (simulate.System, error) {
	type state struct {
		sent    int
		stopped bool
	}
	going := func(s *state, _ int) bool { return !s.stopped }
	sys := &model.System[state]{
		Spec: "coin", Procs: 1, Init: []state{{}},
		Rules: []model.Rule[state]{
			{Name: "send", Guard: going, Do: func(s *state, _, _ int) bool { s.sent++; return true },
				Footprint: func(int) model.Footprint { return model.Footprint{Proc: 0} }},
			{Name: "stop", Guard: going, Do: func(s *state, _, _ int) bool { s.stopped = true; return true },
				Footprint: func(int) model.Footprint { return model.Footprint{Proc: 0} }},
		},
		Measures: []model.Measure[state]{{Name: "messages", Value: func(s *state) int { return s.sent }}},
		Copy:     func(d, s *state) { *d = *s },
	}
	return simulate.Of(sys), nil
}

func TestGeometricMessagesHaveTheirKnownMeanAndSpread(t *testing.T) {
	rep, err := simulate.Simulate(context.Background(), coin, model.Params{N: 1},
		simulate.Options{Seed: 7, Runs: 20000, MaxSteps: 1000, Workers: 2, Messages: "messages"})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Messages
	if m.CI99[0] > 1 || m.CI99[1] < 1 {
		t.Errorf("mean %.3f: its 99%% interval [%.3f, %.3f] misses the known mean 1", m.Mean, m.CI99[0], m.CI99[1])
	}
	if math.Abs(m.Stddev-math.Sqrt2) > 0.05 {
		t.Errorf("stddev %.3f, want about √2", m.Stddev)
	}
	// P(0) = 1/2: the first bin holds about half the runs.
	if b := m.Histogram[0]; b.Lo != 0 || math.Abs(float64(b.Count)/20000-0.5) > 0.02 {
		t.Errorf("first bin %+v, want value 0 in about half the runs", b)
	}
	if rep.Steps.Mean != m.Mean+1 {
		t.Errorf("steps mean %.3f, want messages + the stop, %.3f", rep.Steps.Mean, m.Mean+1)
	}
}

func TestSameSeedSameRunsWhateverTheWorkers(t *testing.T) {
	build := func(p model.Params) (simulate.System, error) {
		sys, err := changroberts.New(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}
	p := model.Params{N: 12, IDs: make([]int, 12), Variant: "all-initiate", Claims: true}
	for i := range p.IDs {
		p.IDs[i] = i + 1
	}
	var reports []*simulate.Report
	for _, workers := range []int{1, 2} {
		rep, err := simulate.Simulate(context.Background(), build, p,
			simulate.Options{Seed: 3, Runs: 200, MaxSteps: 10000, RandomIDs: true, Workers: workers, Messages: "election-messages"})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failure != nil || rep.Done != 200 {
			t.Fatalf("%d workers: %d runs, failure %+v", workers, rep.Done, rep.Failure)
		}
		reports = append(reports, rep)
	}
	a, b := reports[0], reports[1]
	if !reflect.DeepEqual(a.Steps, b.Steps) || !reflect.DeepEqual(a.Measures, b.Measures) {
		t.Fatalf("1 and 2 workers differ:\n%+v\n%+v", a.Measures, b.Measures)
	}
	if a.Messages.Min < 12 || a.Messages.Max > 12*13/2 || a.Messages.Min == a.Messages.Max {
		t.Fatalf("messages %d..%d: want a spread within n..n(n+1)/2", a.Messages.Min, a.Messages.Max)
	}
}

func TestTheFirstFailingRunIsTheSameWhateverTheWorkersAndReplays(t *testing.T) {
	build := func(p model.Params) (simulate.System, error) {
		sys, err := changroberts.New(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}
	// raynal-literal started by a non-maximum deadlocks in some runs only.
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Variant: "raynal-literal", Initiators: []int{0}, Claims: true}
	var first []int
	for _, workers := range []int{1, 2} {
		opt := simulate.Options{Seed: 1, Runs: 50, MaxSteps: 100, Workers: workers}
		rep, err := simulate.Simulate(context.Background(), build, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failure == nil || rep.Failure.Failure.Property != "election-complete" || !rep.Failure.Failure.Deadlock {
			t.Fatalf("%d workers: failure %+v, want a deadlock breaking election-complete", workers, rep.Failure)
		}
		run, _, err := simulate.Replay(build, p, opt, rep.Failure.Index)
		if err != nil || run.Failure == nil || len(run.Actions) != rep.Failure.Steps {
			t.Fatalf("replay of run %d: %+v, %v", rep.Failure.Index, run, err)
		}
		first = append(first, rep.Failure.Index)
	}
	if first[0] != first[1] {
		t.Fatalf("first failing run %d with 1 worker, %d with 2", first[0], first[1])
	}
}

// With every process initiating, Chang–Roberts sends the same ⟨elect⟩
// messages on every schedule: process i's message travels until the first
// larger id, the maximum's all the way round (002 §5.2). Every run of one
// arrangement must count exactly that.
func TestChangRobertsAllInitiateCostsTheSameOnEverySchedule(t *testing.T) {
	ids := []int{4, 9, 2, 7, 1, 10, 3, 8, 6, 5}
	want := 0
	for i, id := range ids {
		k := 1
		for k < len(ids) && ids[(i+k)%len(ids)] < id {
			k++
		}
		want += k
	}
	build := func(p model.Params) (simulate.System, error) {
		sys, err := changroberts.New(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}
	rep, err := simulate.Simulate(context.Background(), build, model.Params{N: len(ids), IDs: ids, Variant: "all-initiate", Claims: true},
		simulate.Options{Seed: 5, Runs: 300, MaxSteps: 1000, Workers: 2, Messages: "election-messages"})
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Messages; m.Min != want || m.Max != want || rep.Failure != nil {
		t.Fatalf("messages %d..%d over %d runs, failure %v; want %d in every run", m.Min, m.Max, m.Runs, rep.Failure, want)
	}
	if rep.Steps.Min != want+len(ids) || rep.Steps.Max != want+len(ids) {
		t.Fatalf("steps %d..%d, want the messages received plus the n ⟨done⟩, %d", rep.Steps.Min, rep.Steps.Max, want+len(ids))
	}
}
