package checker

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/misra"
	"github.com/ringcheck/mc/specs/suzukikasami"
	"github.com/ringcheck/mc/specs/tokenhandshake"
	"github.com/ringcheck/mc/specs/tokenring"
)

// The graph a search records (liveness.Recorder) is the one Build explores
// after it: the same states in the same order, the same edges and actions,
// the same predicates, for any number of workers, with fingerprints or full
// encodings. Wide levels (ringOfJumps) put the edges across chunks and
// rounds, where a state another chunk found new is numbered at the commit.
func TestRecordedGraphIsBuilds(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for _, exact := range []bool{false, true} {
			opt := Options{Workers: workers, Exact: exact}
			name := fmt.Sprintf("workers=%d/exact=%v", workers, exact)
			t.Run("misra/"+name, func(t *testing.T) { sameGraph(t, mustNew(t, misra.New, 3), opt) })
			t.Run("tokenring/"+name, func(t *testing.T) { sameGraph(t, mustNew(t, tokenring.New, 4), opt) })
			t.Run("suzukikasami/"+name, func(t *testing.T) { sameGraph(t, mustNew(t, suzukikasami.New, 3), opt) })
			t.Run("tokenhandshake/"+name, func(t *testing.T) { sameGraph(t, mustNew(t, tokenhandshake.New, 4), opt) })
			t.Run("jumps/"+name, func(t *testing.T) { sameGraph(t, ringOfJumps(40000), opt) })
		}
	}
}

func mustNew[S any](t *testing.T, f func(model.Params) (*model.System[S], error), n int) *model.System[S] {
	t.Helper()
	sys, err := f(model.Params{N: n, IDs: ring.DescendingIDs(n)})
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// sameGraph runs the search of sys under opt and compares the graph it
// recorded with Build's.
func sameGraph[S any](t *testing.T, sys *model.System[S], opt Options) {
	t.Helper()
	res, e := search(context.Background(), sys.WithDeadlock(), opt, nil, false)
	if e == nil || res.Err != nil || res.Reason != "" {
		t.Fatalf("search: err %v, reason %q", res.Err, res.Reason)
	}
	if !e.graph.Holds() {
		t.Fatalf("the search recorded no graph (%q)", e.graph.Dropped())
	}
	guard := newPhaseGuard(context.Background(), PhaseLiveness, Options{}, time.Now(), 0)
	rec, err := e.graph.Graph(guard)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Free()
	props, _ := livenessProps(e.sys)
	built, err := liveness.Build(e.sys, props, liveness.Limits{Exact: opt.Exact}, guard, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer built.Free()
	if int64(rec.States()) != res.States || int64(rec.Transitions()) != res.Transitions {
		t.Fatalf("recorded %d states, %d transitions; the search stored %d, %d", rec.States(), rec.Transitions(), res.States, res.Transitions)
	}
	if err := graphsDiffer(rec, built, len(props)); err != "" {
		t.Fatalf("recorded graph against Build's: %s", err)
	}
}

// graphsDiffer says how two graphs differ, "" if they do not.
func graphsDiffer(a, b *liveness.Graph, props int) string {
	switch {
	case a.States() != b.States() || a.Expanded() != b.Expanded() || a.Transitions() != b.Transitions():
		return fmt.Sprintf("%d/%d/%d states/expanded/transitions against %d/%d/%d", a.States(), a.Expanded(), a.Transitions(), b.States(), b.Expanded(), b.Transitions())
	case a.Depth() != b.Depth():
		return fmt.Sprintf("depth %d against %d", a.Depth(), b.Depth())
	case !slices.Equal(a.Init(), b.Init()):
		return fmt.Sprintf("initial states %v against %v", a.Init(), b.Init())
	}
	for s := range uint32(a.States()) {
		if a.FP(s) != b.FP(s) {
			return fmt.Sprintf("state %d: fingerprint %x against %x", s, a.FP(s), b.FP(s))
		}
		for i := range props {
			af, ag := a.Holds(i, s)
			bf, bg := b.Holds(i, s)
			if af != bf || ag != bg {
				return fmt.Sprintf("state %d, property %d: P %v Q %v against P %v Q %v", s, i, af, ag, bf, bg)
			}
		}
		if int(s) >= a.Expanded() {
			continue
		}
		alo, ahi := a.Edges(s)
		blo, bhi := b.Edges(s)
		if alo != blo || ahi != bhi {
			return fmt.Sprintf("state %d: edges %d..%d against %d..%d", s, alo, ahi, blo, bhi)
		}
		for e := alo; e < ahi; e++ {
			if a.To(e) != b.To(e) || a.Action(e) != b.Action(e) {
				return fmt.Sprintf("state %d, edge %d: to %d by %v against to %d by %v", s, e, a.To(e), a.Action(e), b.To(e), b.Action(e))
			}
		}
	}
	return ""
}

// A run whose liveness is decided on the graph explores the model once:
// every rule's effect runs once per transition, none again for the graph.
func TestARunExploresOnce(t *testing.T) {
	var steps atomic.Int64
	sys := ringOfJumps(5000)
	for i := range sys.Rules {
		do := sys.Rules[i].Do
		sys.Rules[i].Do = func(s *counters, p, c int) bool { steps.Add(1); return do(s, p, c) }
	}
	// The goal is met on every run: no lasso is replayed through the rules.
	sys.Props = []model.Property[counters]{model.EventuallyProp("moved", "test", "", func(s *counters) bool { return s.x[0] != 0 || s.x[1] != 0 })}
	sys.Init = []counters{{x: []int{0, 0}}, {x: []int{1, 0}}}
	once := Run(context.Background(), sys, Options{Fair: model.FairProcess})
	if once.Err != nil || once.Verdict != Pass || once.Liveness == nil || once.Liveness.Method != ByGraph {
		t.Fatalf("verdict %s, err %v, liveness %+v", once.Verdict, once.Err, once.Liveness)
	}
	if got := steps.Load(); got != once.Transitions {
		t.Fatalf("the rules ran %d times for %d transitions: the model was explored more than once", got, once.Transitions)
	}
	// Build, which the liveness phase ran before the search recorded the
	// graph, runs every effect again: the count tells the two apart.
	steps.Store(0)
	props, _ := livenessProps(sys)
	g, err := liveness.Build(sys, props, liveness.Limits{}, newPhaseGuard(context.Background(), PhaseLiveness, Options{}, time.Now(), 0), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Free()
	if got := steps.Load(); got != once.Transitions || int64(g.Transitions()) != once.Transitions {
		t.Fatalf("Build ran the rules %d times for %d transitions, the run found %d", got, g.Transitions(), once.Transitions)
	}
}

// A run's liveness statistics say whether the search recorded the graph or
// a second exploration built it, and why, as the rules' effects count it:
// once per transition when recorded, twice when built again.
func TestTheRunSaysWhereItsGraphCameFrom(t *testing.T) {
	var steps atomic.Int64
	counted := func(sys *model.System[counters]) *model.System[counters] {
		for i := range sys.Rules {
			do := sys.Rules[i].Do
			sys.Rules[i].Do = func(s *counters, p, c int) bool { steps.Add(1); return do(s, p, c) }
		}
		sys.Props = []model.Property[counters]{model.EventuallyProp("moved", "test", "", func(s *counters) bool { return s.x[0] != 0 || s.x[1] != 0 })}
		sys.Init = []counters{{x: []int{0, 0}}, {x: []int{1, 0}}}
		return sys
	}
	constant := counted(ringOfJumps(3000))
	constant.Termination = &model.Termination[counters]{Value: func(buf []int, _ *counters) []int { return append(buf, 0) }}
	for _, c := range []struct {
		name string
		sys  *model.System[counters]
		opt  Options
		why  string // "" for a recorded graph
	}{
		{"recorded", counted(ringOfJumps(3000)), Options{}, ""},
		{"recorded, 2 workers, exact", counted(ringOfJumps(3000)), Options{Workers: 2, Exact: true}, ""},
		{"disk", counted(ringOfJumps(3000)), Options{Disk: t.TempDir()}, "--store disk looks the states up at the end of each level"},
		{"max-depth", counted(ringOfJumps(3000)), Options{MaxDepth: 10000}, "--max-depth: the search does not expand the states at the bound"},
		{"measure", constant, Options{}, "the termination measure does not decrease on every transition"},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps.Store(0)
			c.opt.Fair = model.FairProcess
			res := Run(context.Background(), c.sys, c.opt)
			if res.Err != nil || res.Liveness == nil || res.Liveness.Method != ByGraph {
				t.Fatalf("verdict %s, err %v, liveness %+v", res.Verdict, res.Err, res.Liveness)
			}
			if res.Liveness.Rebuilt != c.why {
				t.Fatalf("rebuilt %q, want %q", res.Liveness.Rebuilt, c.why)
			}
			explorations := 1
			if c.why != "" {
				explorations = 2
			}
			// A failing measure's transition is replayed once more for its
			// report: a few steps, never a whole exploration.
			if got := steps.Load(); got/res.Transitions != int64(explorations) {
				t.Fatalf("the rules ran %d times for %d transitions, want %d explorations", got, res.Transitions, explorations)
			}
		})
	}
}
