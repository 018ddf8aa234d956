package liveness

import (
	"fmt"
	"slices"
	"testing"
)

// Two cycles in a row, a self-loop beside them, a terminal node:
//
//	0 → 1 ⇄ 2 → 3 ⇄ 4 → 5        0 → 6 ↺
var chain = []arc{
	{0, 1, "a", 0}, {1, 2, "a", 0}, {2, 1, "a", 0}, {2, 3, "b", 0},
	{3, 4, "a", 0}, {4, 3, "a", 0}, {4, 5, "b", 0}, {0, 6, "b", 0}, {6, 6, "a", 0},
}

// components decomposes the sub-graph of b's states whose node keep
// accepts, and returns the components as sorted node lists in the order
// they were emitted, with the component of each node (−1 outside).
func components(t *testing.T, b built, keep func(node int) bool) ([][]int, map[int]int) {
	t.Helper()
	var order [][]int
	comp := sccs(b.Graph, func(s uint32) bool { return keep(b.nodeOf[s]) }, func(id uint32, members []uint32, compOf func(uint32) uint32) {
		if int(id) != len(order) {
			t.Fatalf("component %d emitted as the %d-th", id, len(order))
		}
		var nodes []int
		for _, m := range members {
			if compOf(m) != id {
				t.Fatalf("member %d of component %d has component %d", m, id, compOf(m))
			}
			nodes = append(nodes, b.nodeOf[m])
		}
		slices.Sort(nodes)
		order = append(order, nodes)
	})
	if comp == nil {
		t.Fatal("the decomposition stopped")
	}
	of := map[int]int{}
	for s, c := range comp {
		of[b.nodeOf[s]] = -1
		if c != unvisited {
			of[b.nodeOf[s]] = int(c)
		}
	}
	return order, of
}

// The components are the known ones, each emitted after every component
// it reaches (reverse topological order), and the returned array gives
// each state its component.
func TestComponentsOfAKnownGraph(t *testing.T) {
	b := buildGraph(t, graphSystem(chain, nil), 1)
	order, of := components(t, b, func(int) bool { return true })
	got := fmt.Sprint(sortedSets(order))
	if want := "[[0] [1 2] [3 4] [5] [6]]"; got != want {
		t.Fatalf("components %s, want %s", got, want)
	}
	for _, a := range chain {
		if of[a.from] < of[a.to] {
			t.Errorf("arc %d→%d: component %v emitted before %v, which it reaches", a.from, a.to, order[of[a.from]], order[of[a.to]])
		}
		for i, c := range order {
			if slices.Contains(c, a.from) && of[a.from] != i {
				t.Errorf("node %d: component %d returned, emitted in %d", a.from, of[a.from], i)
			}
		}
	}
}

// Leaving a node out of the sub-graph breaks the cycle through it, and
// the node has no component.
func TestComponentsOfASubGraph(t *testing.T) {
	b := buildGraph(t, graphSystem(chain, nil), 1)
	order, of := components(t, b, func(n int) bool { return n != 2 && n != 0 })
	if got, want := fmt.Sprint(sortedSets(order)), "[[1] [3 4] [5] [6]]"; got != want {
		t.Fatalf("components %s, want %s", got, want)
	}
	if of[2] != -1 || of[0] != -1 {
		t.Errorf("nodes outside the sub-graph have components %d, %d", of[0], of[2])
	}
}

// A long path does not overflow anything (the stacks are explicit), and a
// ring of m nodes is one component.
func TestComponentsOfALongRing(t *testing.T) {
	const m = 200000
	sys := graphSystem([]arc{{0, 0, "a", 0}, {0, 0, "b", 0}}, nil)
	sys.Rules[0].Guard = func(s *node, _ int) bool { return s.at < m }
	sys.Rules[0].Choices = func(s *node, _ int) int { return 1 }
	sys.Rules[0].Do = func(s *node, _, _ int) bool { s.at = (s.at + 1) % m; return true }
	sys.Rules[1].Guard = func(s *node, _ int) bool { return s.at == m-1 }
	sys.Rules[1].Choices = func(s *node, _ int) int { return 1 }
	sys.Rules[1].Do = func(s *node, _, _ int) bool { s.at = m; return true }
	b := buildGraph(t, sys, 1)
	order, _ := components(t, b, func(int) bool { return true })
	if len(order) != 2 || len(order[0]) != 1 || order[0][0] != m || len(order[1]) != m {
		t.Fatalf("%d components, the first of %d nodes; want the exit, then the ring of %d", len(order), len(order[0]), m)
	}
	if cycles, largest := CountCycles(b.Graph); cycles != 1 || largest != m {
		t.Errorf("CountCycles: %d, largest %d; want 1, %d", cycles, largest, m)
	}
}

// CountCycles counts the components with an edge inside: two two-node
// cycles and a self-loop; the terminal node and the entry are none.
func TestCountCycles(t *testing.T) {
	b := buildGraph(t, graphSystem(chain, nil), 1)
	if cycles, largest := CountCycles(b.Graph); cycles != 3 || largest != 2 {
		t.Errorf("CountCycles: %d, largest %d; want 3, 2", cycles, largest)
	}
	acyclic := buildGraph(t, graphSystem([]arc{{0, 1, "a", 0}, {0, 2, "a", 0}, {1, 3, "a", 0}, {2, 3, "a", 0}}, nil), 1)
	if cycles, largest := CountCycles(acyclic.Graph); cycles != 0 || largest != 0 {
		t.Errorf("a diamond: %d cycles, largest %d", cycles, largest)
	}
}

// sortedSets sorts components by their least node, for a stable rendering.
func sortedSets(cs [][]int) [][]int {
	out := slices.Clone(cs)
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}
