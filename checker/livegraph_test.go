package checker

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
)

// ringOfJumps is a graph of n states, x = 0 … n-1, with more than 2^16
// edges (the chunk of a graph's columns) when n is large enough: process 0
// steps to x+1 and jumps to 7x+3 (mod n), process 1 rests at the multiples
// of 5. "reach" is eventually x = n-1 (violated by a cycle that avoids it).
func ringOfJumps(n int) *model.System[counters] {
	sys := countersSystem(0, model.EventuallyProp("reach", "test", "", func(s *counters) bool { return s.x[0] == n-1 }))
	sys.Init = []counters{{x: []int{0, 0}}}
	sys.Rules = []model.Rule[counters]{
		{Name: "step", Guard: func(_ *counters, p int) bool { return p == 0 }, Do: func(s *counters, _, _ int) bool { s.x[0] = (s.x[0] + 1) % n; return true }},
		{Name: "jump", Guard: func(_ *counters, p int) bool { return p == 0 }, Do: func(s *counters, _, _ int) bool { s.x[0] = (7*s.x[0] + 3) % n; return true }},
		{Name: "rest", Guard: func(s *counters, p int) bool { return p == 1 && s.x[0]%5 == 0 }, Do: func(*counters, int, int) bool { return true }},
	}
	return sys
}

// tightAfter is a Spill whose memory is short from its calls-th question
// on, with its files under dir.
func tightAfter(calls int, dir string) *liveness.Spill {
	asked := 0
	return &liveness.Spill{
		Tight: func(int64) bool { asked++; return asked >= calls },
		Dir:   func() (string, error) { return dir, nil },
	}
}

// A graph whose edges go to disk, from the start or halfway through its
// build, has the same counts, components and lassos as one in memory.
func TestLivenessGraphOnDiskAgrees(t *testing.T) {
	const n = 40000
	sys := ringOfJumps(n)
	props := []*model.Property[counters]{&sys.Props[0]}
	cls, err := liveness.NewClasses(sys, model.FairNone)
	if err != nil {
		t.Fatal(err)
	}
	type figures struct {
		states, transitions int
		cycles, largest     int64
		lasso               liveness.Lasso
	}
	figuresOf := func(what string, spill *liveness.Spill) figures {
		g, err := liveness.Build(sys, props, liveness.Limits{Spill: spill}, newPhaseGuard(context.Background(), PhaseLiveness, Options{}, time.Now(), 0), liveness.SearchBytesPerState, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer g.Free()
		if g.Spilled() != (spill != nil) || g.Transitions() <= 1<<16 {
			t.Fatalf("%s: spilled %v, %d transitions", what, g.Spilled(), g.Transitions())
		}
		f := figures{states: g.States(), transitions: g.Transitions()}
		f.cycles, f.largest = liveness.CountCycles(g)
		l := liveness.FindLasso(g, cls, 0, true)
		if l == nil {
			t.Fatalf("%s: no lasso", what)
		}
		f.lasso = *l
		return f
	}
	want := figuresOf("memory", nil)
	for _, c := range []struct {
		what  string
		spill *liveness.Spill
	}{
		{"disk from the start", &liveness.Spill{Always: true, Dir: func() (string, error) { return t.TempDir(), nil }}},
		{"disk from state 256 on", tightAfter(2, t.TempDir())},
		{"disk from state 2^15 on", tightAfter(1<<15/256+1, t.TempDir())},
	} {
		got := figuresOf(c.what, c.spill)
		if got.states != want.states || got.transitions != want.transitions || got.cycles != want.cycles || got.largest != want.largest ||
			got.lasso.Init != want.lasso.Init || !slices.Equal(got.lasso.Stem, want.lasso.Stem) || !slices.Equal(got.lasso.Loop, want.lasso.Loop) || got.lasso.EntryFP != want.lasso.EntryFP {
			t.Errorf("%s: %+v; in memory %+v", c.what, got, want)
		}
	}
}

// With the disk store, the liveness graph goes to disk, and the checks
// reach the same verdicts and counterexamples as in memory.
func TestLivenessDiskStoreSpillsTheGraph(t *testing.T) {
	sys := ringOfJumps(20000)
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess} {
		mem := Run(context.Background(), sys, Options{Fair: f})
		disk := Run(context.Background(), sys, Options{Fair: f, Disk: t.TempDir()})
		if mem.Err != nil || disk.Err != nil || !disk.Liveness.Spilled || mem.Liveness.Spilled || disk.Liveness.DiskBytes == 0 {
			t.Fatalf("%s: %v %v; spilled %v %v", f, mem.Err, disk.Err, mem.Liveness.Spilled, disk.Liveness.Spilled)
		}
		a, b := mem.Props[0], disk.Props[0]
		if a.Verdict != b.Verdict || (a.Trace == nil) != (b.Trace == nil) || (a.Trace != nil && lassoShape(a.Trace) != lassoShape(b.Trace)) {
			t.Fatalf("%s: memory %s, disk %s", f, a.Verdict, b.Verdict)
		}
	}
}

// switchGuard stops whatever asks it once on is set.
type switchGuard struct{ on bool }

func (g *switchGuard) Exceeded(int64) string {
	if g.on {
		return "interrupted"
	}
	return ""
}
func (*switchGuard) Progress(int64, int64, int, int, int64) {}

// A limit that strikes after the build stops the decomposition and the
// search halfway, which say so instead of answering.
func TestLivenessAnalysesHonourTheGuard(t *testing.T) {
	sys := ringOfJumps(40000)
	cls, err := liveness.NewClasses(sys, model.FairNone)
	if err != nil {
		t.Fatal(err)
	}
	guard := &switchGuard{}
	g, err := liveness.Build(sys, []*model.Property[counters]{&sys.Props[0]}, liveness.Limits{}, guard, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	guard.on = true
	if c, _ := liveness.CountCycles(g); c != 0 || g.Halted() != "interrupted" {
		t.Fatalf("cycles %d, halted %q", c, g.Halted())
	}
	if l := liveness.FindLasso(g, cls, 0, true); l != nil {
		t.Fatalf("a lasso after the guard stopped the search: %+v", l)
	}
}
