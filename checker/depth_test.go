package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

func sumBelow4() model.Property[counters] {
	return model.InvariantProp("sum-below-4", "test", "x0+x1 < 4", func(s *counters) bool { return s.x[0]+s.x[1] < 4 })
}

// A bound below the graph's depth (6) explores levels 0..D, expands level
// D, and ends incomplete; a bound at or past it gives the unbounded run's
// pass and counts.
func TestMaxDepthCutsOrFinishes(t *testing.T) {
	for _, c := range []struct {
		depth               int
		verdict             Verdict
		states, transitions int64
		limited             bool
		reached             int
	}{
		{2, Incomplete, 6, 12, true, 2},  // levels 0..2: 1+2+3 states, 2+4+6 transitions
		{5, Incomplete, 15, 24, true, 5}, // all but (3,3), which level 5 reaches
		{6, Pass, 16, 24, false, 6},
		{9, Pass, 16, 24, false, 6},
	} {
		r := Run(context.Background(), countersSystem(3), Options{MaxDepth: c.depth})
		if r.Err != nil || r.Verdict != c.verdict || r.States != c.states || r.Transitions != c.transitions || r.DepthLimited != c.limited || r.Depth != c.reached {
			t.Errorf("--max-depth %d: %s (%q, err %v), %d states, %d transitions, limited %v, depth %d; want %s, %d, %d, %v, %d",
				c.depth, r.Verdict, r.Reason, r.Err, r.States, r.Transitions, r.DepthLimited, r.Depth, c.verdict, c.states, c.transitions, c.limited, c.reached)
		}
		if c.limited && !strings.Contains(r.Reason, "depth limit") {
			t.Errorf("--max-depth %d: reason %q", c.depth, r.Reason)
		}
	}
}

// A violation at depth 4 is beyond a bound of 3, which says only that
// there is none up to depth 3, and within a bound of 4, which finds it.
func TestMaxDepthFindsAViolationWithinTheBoundOnly(t *testing.T) {
	r := Run(context.Background(), countersSystem(3, sumBelow4()), Options{MaxDepth: 3})
	if r.Verdict != Incomplete || prop(&r, "sum-below-4").Verdict != Incomplete || !r.DepthLimited {
		t.Fatalf("--max-depth 3: %s, property %s", r.Verdict, prop(&r, "sum-below-4").Verdict)
	}
	r = Run(context.Background(), countersSystem(3, sumBelow4()), Options{MaxDepth: 4})
	if r.Verdict != Fail || r.DepthLimited || len(prop(&r, "sum-below-4").Trace.Steps) != 4 {
		t.Fatalf("--max-depth 4: %s, limited %v", r.Verdict, r.DepthLimited)
	}
}

// The bound is part of the run's meaning: a resume with another bound is
// refused, naming it; with partial-order reduction it is refused.
func TestMaxDepthIsPartOfTheMeaning(t *testing.T) {
	dir := t.TempDir()
	if r := Run(context.Background(), countersSystem(3), Options{Checkpoint: dir, MaxDepth: 4}); r.Err != nil || r.Verdict != Incomplete {
		t.Fatalf("%s, %v", r.Verdict, r.Err)
	}
	r := Run(context.Background(), countersSystem(3), Options{Checkpoint: dir, Resume: true, MaxDepth: 5})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "--max-depth: the checkpoint has 4, this run has 5") {
		t.Fatalf("resume with another bound: %v", r.Err)
	}
	if r := Run(context.Background(), countersSystem(3), Options{Checkpoint: dir, Resume: true, MaxDepth: 4}); r.Err != nil || r.Verdict != Incomplete || r.States != 13 {
		t.Fatalf("resume with the same bound: %s, %d states, %v", r.Verdict, r.States, r.Err)
	}
	if err := CanBound(Options{MaxDepth: 3, Reduce: true}); err == nil || !strings.Contains(err.Error(), "--por") {
		t.Fatalf("--max-depth with --por: %v", err)
	}
}
