package checker

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/mc/model"
)

// A mark that reaches a state after its expansion is passed on by
// re-expanding it. Node 3 is first reached through the goal, node 1, so
// unmarked, and expanded at level 2; the run 0 5 6 7 3 4 never visits the
// goal, and its edge 7 → 3 gives 3 its mark only at level 3. Unless 3 is
// re-expanded, the terminal node 4 keeps no mark and "eventually 1" passes,
// as it would if a state already expanded were taken for one still to be
// expanded.
func TestLateMarkReexpandsState(t *testing.T) {
	arcs := []arc{{0, 1, "a", 0}, {0, 5, "b", 0}, {1, 3, "a", 0}, {3, 4, "a", 0}, {5, 6, "a", 0}, {6, 7, "a", 0}, {7, 3, "a", 0}}
	height := map[int]int{0: 5, 5: 4, 6: 3, 7: 2, 1: 2, 3: 1, 4: 0}
	sys := explicit(arcs, nil, eventually(1))
	sys.Termination = &model.Termination[at]{Value: func(buf []int, s *at) []int { return append(buf, height[s.node]) }}
	failsByMeasure(t, sys, "b/p0→5 a/p0→6 a/p0→7 a/p0→3 a/p0→4 | stop")
}

// failsByMeasure checks that the liveness of sys is decided by its measure,
// in the marks phase, and that its first property fails with the
// counterexample want, with one and two workers, the disk store and
// checkpoints.
func failsByMeasure(t *testing.T, sys *model.System[at], want string) {
	t.Helper()
	for _, opt := range []Options{{Workers: 1}, {Workers: 2}, {Workers: 1, Disk: t.TempDir()},
		{Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck")}} {
		r := Run(context.Background(), sys, opt)
		if r.Err != nil || r.Liveness == nil || r.Liveness.Method != ByMeasure || !r.Liveness.Marked {
			t.Fatalf("%+v: %v, liveness %+v", opt, r.Err, r.Liveness)
		}
		p := r.Props[0]
		if p.Verdict != Fail {
			t.Fatalf("%+v: %s %s", opt, p.Name, p.Verdict)
		}
		if got := lassoShape(p.Trace); got != want {
			t.Fatalf("%+v: counterexample %q, want %q", opt, got, want)
		}
	}
}

// A property whose goal every terminal state meets holds, decided without
// marks; one whose goal a terminal state leaves unmet is decided by the
// marks phase, which passes it when every run to that state meets the goal
// on its way. Node 0 leads to 1 and 2, both to the terminal node 3:
// "eventually 1 or 2" is met by every run, though not at 3; "eventually
// 3" is met at 3 itself.
func TestMarksPhaseRunsOnlyForAnUnmetGoal(t *testing.T) {
	arcs := []arc{{0, 1, "a", 0}, {0, 2, "b", 0}, {1, 3, "a", 0}, {2, 3, "a", 0}}
	height := map[int]int{0: 2, 1: 1, 2: 1, 3: 0}
	for _, c := range []struct {
		goal   []int
		marked bool
	}{{[]int{3}, false}, {[]int{1, 2}, true}} {
		sys := explicit(arcs, nil, eventually(c.goal...))
		sys.Termination = &model.Termination[at]{Value: func(buf []int, s *at) []int { return append(buf, height[s.node]) }}
		for _, opt := range []Options{{Workers: 1}, {Workers: 2, Disk: t.TempDir()}, {Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck")}} {
			r := Run(context.Background(), sys, opt)
			if r.Err != nil || r.Liveness == nil || r.Liveness.Method != ByMeasure || r.Liveness.Marked != c.marked || r.Verdict != Pass {
				t.Fatalf("eventually %v, %+v: %v %s, liveness %+v", c.goal, opt, r.Err, r.Verdict, r.Liveness)
			}
		}
	}
}

// The marks phase is a liveness phase under the run's limits: interrupted
// there, the run is incomplete, its liveness property too, and it says so.
func TestMarksPhaseStopsWhenInterrupted(t *testing.T) {
	arcs := []arc{{0, 1, "a", 0}, {0, 5, "b", 0}, {1, 3, "a", 0}, {3, 4, "a", 0}, {5, 6, "a", 0}, {6, 7, "a", 0}, {7, 3, "a", 0}}
	height := map[int]int{0: 5, 5: 4, 6: 3, 7: 2, 1: 2, 3: 1, 4: 0}
	sys := explicit(arcs, nil, eventually(1))
	sys.Termination = &model.Termination[at]{Value: func(buf []int, s *at) []int { return append(buf, height[s.node]) }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	phases := map[string]bool{}
	r := Run(ctx, sys, Options{Workers: 1, ProgressEvery: time.Nanosecond, Progress: func(p Progress) {
		phases[p.Phase] = true
		if p.Phase == PhaseLiveness {
			cancel()
		}
	}})
	if r.Err != nil || r.Verdict != Incomplete || r.Props[0].Verdict != Incomplete || r.Liveness == nil || !r.Liveness.Marked ||
		!strings.Contains(r.Reason, "interrupted") || !phases[PhaseSafety] || !phases[PhaseLiveness] {
		t.Fatalf("%v %s %q, %s, liveness %+v, phases %v", r.Err, r.Verdict, r.Reason, r.Props[0].Verdict, r.Liveness, phases)
	}
}

// The bounds of the edges to one new state from several chunks of a round
// are merged: node 0 has 3,000 children, more than two chunks of a level
// (chunkSize), and children 1 and 2,000, in the first and second chunk,
// both lead to node 9,000. Only the second edge breaks the measure, which
// the check of 9,000 against the merged bound catches.
func TestBoundsMergeAcrossChunks(t *testing.T) {
	const children, x, breaks = 3000, 9000, 2000
	sys := fanned(children, map[int][]int{1: {x}, breaks: {x}}, eventually(x))
	value := func(s *at) int {
		switch s.node {
		case 0:
			return 2
		case x, breaks:
			return 0
		}
		return 1
	}
	sys.Termination = &model.Termination[at]{Value: func(buf []int, s *at) []int { return append(buf, value(s)) }}
	for _, workers := range []int{1, 2} {
		r := Run(context.Background(), sys, Options{Workers: workers})
		w := r.WrongMeasure
		if r.Err != nil || w == nil {
			t.Fatalf("%d workers: %v; the edge %d → %d breaking the measure was not caught", workers, r.Err, breaks, x)
		}
		if got := lassoShape(w.Trace); got != "a→2000 a→9000 |" || w.Before[0] != 0 || w.After[0] != 0 {
			t.Fatalf("%d workers: reported %q, %v → %v", workers, got, w.Before, w.After)
		}
	}
}

// fanned is explicit's system with one rule, a, where node 0 leads to
// nodes 1 to children and any other node to those arcs lists: a graph
// with thousands of arcs from a node, whose successors are found without a
// scan of them all.
func fanned(children int, arcs map[int][]int, props ...model.Property[at]) *model.System[at] {
	next := func(node int) []int {
		if node != 0 {
			return arcs[node]
		}
		out := make([]int, children)
		for c := range out {
			out[c] = c + 1
		}
		return out
	}
	sys := explicit(nil, nil, props...)
	sys.Rules = []model.Rule[at]{{
		Name:    "a",
		Guard:   func(s *at, _ int) bool { return len(next(s.node)) > 0 },
		Choices: func(s *at, _ int) int { return len(next(s.node)) },
		Do:      func(s *at, _, k int) bool { s.node = next(s.node)[k]; return true },
		Label:   func(s *at, _, k int) string { return fmt.Sprintf("a→%d", next(s.node)[k]) },
	}}
	return sys
}

// A state that gains a mark after its admission, before its expansion,
// expands with it. Node 0 has 3,000 children, three chunks of a level
// (chunkSize); all but child 2,000 are goals of "eventually", so carry no
// mark. Child 1, in the first chunk, and child 2,000, in the second, both
// lead to node 9,000, admitted from the first without a mark and given
// one by the second edge; 9,000 leads to the terminal node 9,001. Were
// 9,000 expanded with the marks it was admitted with (the level's copy of
// its marks: termination/slots.go), 9,001 would keep no mark and the property
// would pass.
func TestMarkGainedBeforeExpansionIsPassedOn(t *testing.T) {
	const children, x, marked = 3000, 9000, 2000
	var goals []int
	for c := 1; c <= children; c++ {
		if c != marked {
			goals = append(goals, c)
		}
	}
	sys := fanned(children, map[int][]int{1: {x}, marked: {x}, x: {x + 1}}, eventually(goals...))
	height := func(s *at) int {
		switch {
		case s.node == 0:
			return 3
		case s.node <= children:
			return 2
		}
		return x + 1 - s.node
	}
	sys.Termination = &model.Termination[at]{Value: func(buf []int, s *at) []int { return append(buf, height(s)) }}
	failsByMeasure(t, sys, "a→2000 a→9000 a→9001 | stop")
}
