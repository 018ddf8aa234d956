package liveness

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
)

// counters is procs counters modulo m, each process incrementing its own
// or, at m−1, resetting every counter: m^procs states, and breadth-first
// levels hundreds of states wide, several batches each.
type counters struct{ c [4]uint8 }

func countersSystem(procs, m int) *model.System[counters] {
	sys := &model.System[counters]{
		Spec: "counters", Procs: procs, Init: []counters{{}}, Ends: model.EveryEnd[counters],
		Copy:   func(d, s *counters) { *d = *s },
		Encode: func(b []byte, s *counters) []byte { return append(b, s.c[:procs]...) },
		Decode: func(b []byte, s *counters) error {
			if len(b) != procs {
				return fmt.Errorf("%d bytes", len(b))
			}
			copy(s.c[:], b)
			return nil
		},
	}
	sys.Rules = []model.Rule[counters]{
		{Name: "inc", Guard: func(*counters, int) bool { return true }, Choices: func(*counters, int) int { return 1 },
			Do: func(s *counters, p, _ int) bool { s.c[p] = uint8((int(s.c[p]) + 1) % m); return true }},
		{Name: "reset", Guard: func(s *counters, p int) bool { return int(s.c[p]) == m-1 }, Choices: func(*counters, int) int { return 1 },
			Do: func(s *counters, _, _ int) bool { s.c = [4]uint8{}; return true }},
	}
	for i := range sys.Rules {
		r := &sys.Rules[i]
		r.Label = func(_ *counters, p, _ int) string { return fmt.Sprintf("%s/p%d", r.Name, p) }
	}
	return sys
}

// graphOf builds sys's graph with one leads-to property, whose P and Q
// the graph records per state.
func graphOf(t *testing.T, sys *model.System[counters], lim Limits) *Graph {
	t.Helper()
	p := model.LeadsToProp("leads", "test", "", func(s *counters) bool { return s.c[0] == 3 }, func(s *counters) bool { return s.c[1] > s.c[2] })
	g, err := Build(sys, []*model.Property[counters]{&p}, lim, noGuard{}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Free() })
	return g
}

// sameGraph fails the test unless a and b are the same graph: states in
// the same order, the same edges with the same actions, the same
// predicates.
func sameGraph(t *testing.T, what string, a, b *Graph) {
	t.Helper()
	if a.States() != b.States() || a.Transitions() != b.Transitions() || a.Expanded() != b.Expanded() || a.Depth() != b.Depth() || !slices.Equal(a.Init(), b.Init()) {
		t.Fatalf("%s: %d states %d transitions %d expanded depth %d, against %d %d %d %d", what,
			b.States(), b.Transitions(), b.Expanded(), b.Depth(), a.States(), a.Transitions(), a.Expanded(), a.Depth())
	}
	for s := uint32(0); int(s) < a.States(); s++ {
		alo, ahi := a.Edges(s)
		blo, bhi := b.Edges(s)
		if a.FP(s) != b.FP(s) || alo != blo || ahi != bhi || bit(a.from[0], s) != bit(b.from[0], s) || bit(a.goal[0], s) != bit(b.goal[0], s) {
			t.Fatalf("%s: state %d differs", what, s)
		}
		for e := alo; e < ahi; e++ {
			if a.To(e) != b.To(e) || a.Action(e) != b.Action(e) {
				t.Fatalf("%s: edge %d of state %d: to %d by %v, against %d by %v", what, e, s, b.To(e), b.Action(e), a.To(e), a.Action(e))
			}
		}
	}
}

// The graph is the same for any number of workers: the parallel build
// numbers the successors batch after batch as one goroutine would.
func TestParallelBuildIsTheSequentialOne(t *testing.T) {
	sys := countersSystem(4, 12)
	one := graphOf(t, sys, Limits{Workers: 1})
	if one.States() != 12*12*12*12 || one.Transitions() != 4*12*12*12*12+4*12*12*12 {
		t.Fatalf("%d states %d transitions; want 12^4 and 4·12^4 + 4·12^3", one.States(), one.Transitions())
	}
	for _, w := range []int{2, 3, 8} {
		sameGraph(t, fmt.Sprintf("%d workers", w), one, graphOf(t, sys, Limits{Workers: w}))
	}
	// Full states as keys instead of fingerprints give the same graph.
	sameGraph(t, "exact", one, graphOf(t, sys, Limits{Workers: 2, Exact: true}))
}

// Every state is numbered in breadth-first order, its edges lead where
// its rules do, and Source finds the state of every edge.
func TestEdgesAndTheirSources(t *testing.T) {
	sys := countersSystem(2, 3)
	g := graphOf(t, sys, Limits{Workers: 1})
	var s, next counters
	// The breadth-first numbering of 3×3 counters from (0,0): inc p0 then
	// inc p1 at each state, in order.
	want := [][2]uint8{{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}, {2, 1}, {1, 2}, {2, 2}}
	fps := map[uint64]int{}
	for i, c := range want {
		fps[model.Fingerprint([]byte{c[0], c[1]})] = i
	}
	for id := uint32(0); int(id) < g.States(); id++ {
		if got, ok := fps[g.FP(id)]; !ok || got != int(id) {
			t.Fatalf("state %d is the %d-th of the breadth-first order", id, got)
		}
		s.c[0], s.c[1] = want[id][0], want[id][1]
		lo, hi := g.Edges(id)
		var acts []model.Action
		for a := range sys.Steps(&s, &next) {
			acts = append(acts, a)
		}
		if hi-lo != len(acts) {
			t.Fatalf("state %d: %d edges, %d enabled actions", id, hi-lo, len(acts))
		}
		for e := lo; e < hi; e++ {
			a := acts[e-lo]
			sys.Apply(&s, a, &next)
			if g.Action(e) != a || fps[model.Fingerprint(sys.Encode(nil, &next))] != int(g.To(e)) || g.Source(e) != id {
				t.Fatalf("edge %d: %v to %d from %d; want %v to %v from %d", e, g.Action(e), g.To(e), g.Source(e), a, next.c[:2], id)
			}
		}
	}
}

// A column reads back what was pushed, in memory and spilled to a file at
// any point, after the cut a stopped build makes.
func TestColumnSpillsAndReadsBack(t *testing.T) {
	const n = 3*chunkLen + 17
	for _, spillAt := range []int{-1, 0, 5, chunkLen, chunkLen + 1, 2*chunkLen + 3} {
		var c column[uint32]
		for i := 0; i < n; i++ {
			if i == spillAt {
				if err := c.spill(filepath.Join(t.TempDir(), "col")); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.push(uint32(i * 7)); err != nil {
				t.Fatal(err)
			}
		}
		c.truncate(n - 20) // a state's edges that a limit cut: the build stops
		if err := c.finish(); err != nil {
			t.Fatal(err)
		}
		if c.len() != n-20 {
			t.Fatalf("spill at %d: length %d, want %d", spillAt, c.len(), n-20)
		}
		for i := 0; i < n-20; i++ {
			if c.at(i) != uint32(i*7) {
				t.Fatalf("spill at %d: element %d is %d, want %d", spillAt, i, c.at(i), i*7)
			}
		}
		if want := int64(4 * (n - 20)); spillAt < 0 && c.diskBytes() != 0 || spillAt >= 0 && c.diskBytes() != want {
			t.Fatalf("spill at %d: %d bytes on disk, want %d", spillAt, c.diskBytes(), want)
		}
		if err := c.free(); err != nil {
			t.Fatal(err)
		}
	}
}

// The exact index tells apart encodings whatever their fingerprints.
func TestExactIndexKeysByEncoding(t *testing.T) {
	x := &exactIndex{ids: map[string]uint32{}}
	x.add([]byte{1, 2}, 7, 0)
	x.add([]byte{2, 1}, 7, 1)
	if id, ok := x.find([]byte{2, 1}, 7); !ok || id != 1 {
		t.Fatalf("find: %d %v", id, ok)
	}
	if _, ok := x.find([]byte{1, 1}, 7); ok {
		t.Fatal("found an encoding never stored, by its fingerprint")
	}
}
