package simulate_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/vlt"
)

// vltSystem is vlt's constructor as simulate builds systems.
func vltSystem(p model.Params) (simulate.System, error) {
	sys, err := vlt.New(p)
	if err != nil {
		return nil, err
	}
	return simulate.Of(sys), nil
}

// Beyond n = 16 vlt refuses to start from every orientation assignment;
// with RandomOrientation each run draws one, from its own generator: the
// same runs whatever the workers, each run's draw its own, and made again
// alike by Replay.
func TestEachRunDrawsItsOrientation(t *testing.T) {
	p := model.Params{N: 17, IDs: []int{3, 9, 1, 14, 7, 2, 17, 5, 11, 16, 4, 8, 13, 6, 10, 15, 12}, Claims: true}
	if _, err := simulate.Simulate(context.Background(), vltSystem, p, simulate.Options{Seed: 1, Runs: 1, MaxSteps: 10000, Workers: 1}); err == nil {
		t.Fatal("vlt at n=17 without an orientation was not refused: the test shows nothing")
	}
	var reports []*simulate.Report
	for _, workers := range []int{1, 3} {
		opt := simulate.Options{Seed: 4, Runs: 12, MaxSteps: 100000, Workers: workers, RandomOrientation: true, Messages: "election-messages"}
		rep, err := simulate.Simulate(context.Background(), vltSystem, p, opt)
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if rep.Done != 12 || rep.Failure != nil || rep.NotTerminated != 0 {
			t.Fatalf("%d workers: %d runs done, failure %+v, %d not terminated", workers, rep.Done, rep.Failure, rep.NotTerminated)
		}
		reports = append(reports, rep)
	}
	if reports[0].Messages.Mean != reports[1].Messages.Mean || reports[0].Steps.Mean != reports[1].Steps.Mean {
		t.Fatalf("1 and 3 workers differ: %+v, %+v", reports[0].Steps, reports[1].Steps)
	}
	opt := simulate.Options{Seed: 4, Runs: 12, MaxSteps: 100000, Workers: 1, RandomOrientation: true}
	var drawn [][]bool
	for _, index := range []int{0, 1, 0} {
		run, q, err := simulate.Replay(vltSystem, p, opt, index)
		if err != nil {
			t.Fatal(err)
		}
		if len(q.Orientation) != p.N || !slices.Equal(q.Orientation, run.Orientation) || !run.Terminated {
			t.Fatalf("run %d: orientation %v in its parameters, %v in the run, terminated %v", index, q.Orientation, run.Orientation, run.Terminated)
		}
		drawn = append(drawn, q.Orientation)
	}
	if slices.Equal(drawn[0], drawn[1]) || !slices.Equal(drawn[0], drawn[2]) {
		t.Fatalf("runs 0, 1 and 0 again drew %s, %s, %s: want two different draws, the first made again",
			model.FormatOrientation(drawn[0]), model.FormatOrientation(drawn[1]), model.FormatOrientation(drawn[2]))
	}
	p.Orientation = make([]bool, p.N)
	if _, err := simulate.Simulate(context.Background(), vltSystem, p, opt); err == nil {
		t.Fatal("a fixed orientation with RandomOrientation was not refused")
	}
}

// leaning is a one-process system that fails its invariant in its first
// state when process 0 is flipped: the first failing run is the first that
// drew such an orientation, and it carries its draw.
func leaning(p model.Params) (simulate.System, error) {
	type state struct{ flipped, stopped bool }
	sys := &model.System[state]{
		Spec: "leaning", Procs: 1, Init: []state{{flipped: p.Orientation != nil && p.Orientation[0]}},
		Rules: []model.Rule[state]{
			{Name: "stop", Guard: func(s *state, _ int) bool { return !s.stopped }, Do: func(s *state, _, _ int) bool { s.stopped = true; return true },
				Footprint: func(int) model.Footprint { return model.Footprint{Proc: 0} }},
		},
		Props: []model.Property[state]{{Name: "unflipped", Kind: model.Invariant, State: func(s *state) bool { return !s.flipped }}},
		Copy:  func(d, s *state) { *d = *s },
	}
	return simulate.Of(sys), nil
}

func TestAFailingRunCarriesTheOrientationItDrew(t *testing.T) {
	p := model.Params{N: 5, IDs: []int{1, 2, 3, 4, 5}}
	opt := simulate.Options{Seed: 2, Runs: 40, MaxSteps: 10, Workers: 2, RandomOrientation: true}
	rep, err := simulate.Simulate(context.Background(), leaning, p, opt)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil || len(f.Orientation) != p.N || !f.Orientation[0] {
		t.Fatalf("failure %+v: want a run that drew process 0 flipped", f)
	}
	_, q, err := simulate.Replay(leaning, p, opt, f.Index)
	if err != nil || !slices.Equal(q.Orientation, f.Orientation) {
		t.Fatalf("replay of run %d drew %v (%v), the run %v", f.Index, q.Orientation, err, f.Orientation)
	}
}
