package liveness

import (
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/model"
)

// SearchBytesPerState is the memory the search for a lasso needs per state
// of the graph beyond the graph itself: the components (4 bytes, scc.go),
// the search's predecessors (8) and its queue, with room for the
// decomposition's stacks. The graph's build should stop while that still
// fits under the memory limit (Build's reserve).
const SearchBytesPerState = 24

// CountCycles counts the strongly connected components of the expanded
// graph that contain a cycle, and the states of the largest; no cycle means
// every run is finite. Both are 0 if the graph's guard stopped it
// (g.Halted).
func CountCycles(g *Graph) (cycles, largest int64) {
	comp := sccs(g, func(uint32) bool { return true }, func(_ uint32, members []uint32, _ func(uint32) uint32) {
		if len(members) > 1 || selfLoop(g, members[0]) {
			cycles++
			largest = max(largest, int64(len(members)))
		}
	})
	if comp == nil {
		return 0, 0
	}
	return cycles, largest
}

func selfLoop(g *Graph, s uint32) bool {
	lo, hi := g.Edges(s)
	for e := lo; e < hi; e++ {
		if g.to.at(e) == s {
			return true
		}
	}
	return false
}

// Lasso is a counterexample in graph terms: the initial state it starts
// from (an index of sys.Init), the actions of its prefix (Stem) and of its
// loop, and the fingerprint of the loop's entry, where the run's replay
// must end. A Terminating lasso has no loop: it is a finite maximal run,
// ending in a terminal state.
type Lasso struct {
	Init        int
	Stem, Loop  []model.Action
	EntryFP     uint64
	Terminating bool
}

// Markers in the search's predecessor array.
const (
	unseen  = ^uint32(0)
	root    = unseen - 1
	trigger = unseen - 2
)

// FindLasso looks for a fair counterexample to the j-th property Build
// evaluated: "P leads to Q", or "eventually Q" when eventually is set. It
// considers the expanded states only; nil means there is none among them,
// or that the graph's guard stopped the search (g.Halted).
func FindLasso(g *Graph, cls *Classes, j int, eventually bool) *Lasso {
	from, goal := g.from[j], g.goal[j]
	avoid := func(s uint32) bool { return !bit(goal, s) }
	// bad and canFail are bit sets over the components, in emission order.
	var bad, canFail []uint64
	every, taken, enabled := make([]uint64, cls.words), make([]uint64, cls.words), make([]uint64, cls.words)
	n := uint32(g.expanded)
	comp := sccs(g, avoid, func(id uint32, members []uint32, compOf func(uint32) uint32) {
		b := len(members) == 1 && g.Terminal(members[0])
		if !b && (len(members) > 1 || selfLoop(g, members[0])) {
			b = fairComponent(g, cls, id, members, compOf, every, taken, enabled)
		}
		can := b
		for _, m := range members {
			lo, hi := g.Edges(m)
			for e := lo; e < hi && !can; e++ {
				// A successor outside the sub-graph has compOf n.
				if w := g.to.at(e); w < n {
					c := compOf(w)
					can = c < id && bit(canFail, c)
				}
			}
		}
		if id%64 == 0 {
			bad, canFail = append(bad, 0), append(canFail, 0)
		}
		if b {
			bad[id/64] |= 1 << (id % 64)
		}
		if can {
			canFail[id/64] |= 1 << (id % 64)
		}
	})
	if comp == nil {
		return nil
	}
	fails := func(s uint32) bool { return s < n && comp[s] != unvisited && bit(canFail, comp[s]) }

	// Breadth-first search over (state, phase); node = 2·state + phase.
	pred := make([]uint32, 2*int(n))
	for i := range pred {
		pred[i] = unseen
	}
	// queue[head:] are the nodes to expand; the expanded prefix is dropped
	// when it is half of the slice, so the queue holds about the frontier.
	var queue []uint32
	head, most := 0, 0
	discover := func(s uint32, phase uint32, how uint32) {
		if x := 2*s + phase; pred[x] == unseen {
			pred[x] = how
			queue = append(queue, x)
		}
		if phase == 0 && !eventually && bit(from, s) && fails(s) && pred[2*s+1] == unseen {
			pred[2*s+1] = trigger
			queue = append(queue, 2*s+1)
		}
	}
	for _, s := range g.init {
		switch {
		case s >= n:
		case !eventually:
			discover(s, 0, root)
		case fails(s):
			discover(s, 1, root)
		}
	}
	working := func() int64 { return int64(cap(comp)+cap(pred)+most)*4 + int64(cap(bad)+cap(canFail))*8 }
	defer func() { g.notePeak(working()) }()
	for steps := 1; head < len(queue); steps++ {
		if g.check(steps) {
			return nil
		}
		if head > 1<<16 && 2*head > len(queue) {
			queue = append(queue[:0], queue[head:]...)
			head = 0
		}
		most = max(most, cap(queue))
		x := queue[head]
		head++
		s, phase := x/2, x%2
		if phase == 1 && bit(bad, comp[s]) {
			return buildLasso(g, cls, pred, s, comp)
		}
		lo, hi := g.Edges(s)
		for e := lo; e < hi; e++ {
			t := g.to.at(e)
			if t >= n || (phase == 1 && !fails(t)) {
				continue
			}
			discover(t, phase, uint32(e))
		}
	}
	return nil
}

// fairComponent reports whether component id (with an edge inside) lets a
// weakly fair run stay in it forever: every class enabled in all its states
// is taken by one of its edges. every, taken and enabled are scratch sets.
func fairComponent(g *Graph, cls *Classes, id uint32, members []uint32, compOf func(uint32) uint32, every, taken, enabled []uint64) bool {
	for w := range every {
		every[w], taken[w] = ^uint64(0), 0
	}
	for _, m := range members {
		clear(enabled)
		lo, hi := g.Edges(m)
		for e := lo; e < hi; e++ {
			k := cls.of(packed.Unpack(g.act.at(e)))
			set(enabled, k)
			if t := g.to.at(e); int(t) < g.expanded && compOf(t) == id {
				set(taken, k)
			}
		}
		for w := range every {
			every[w] &= enabled[w]
		}
	}
	for w := range every {
		if every[w]&^taken[w] != 0 {
			return false
		}
	}
	return true
}

// buildLasso turns the search's result into a lasso: the prefix from the
// predecessors, then a fair loop through entry's component.
func buildLasso(g *Graph, cls *Classes, pred []uint32, entry uint32, comp []uint32) *Lasso {
	l := &Lasso{EntryFP: g.fp.at(int(entry))}
	var stem []int
	for x := 2*entry + 1; ; {
		how := pred[x]
		switch how {
		case root:
			for i, s := range g.init {
				if s == x/2 {
					l.Init = i
					break
				}
			}
			for i := len(stem) - 1; i >= 0; i-- {
				l.Stem = append(l.Stem, packed.Unpack(g.act.at(stem[i])))
			}
			if g.Terminal(entry) {
				l.Terminating = true
				return l
			}
			for _, e := range fairLoop(g, cls, entry, comp) {
				l.Loop = append(l.Loop, packed.Unpack(g.act.at(e)))
			}
			return l
		case trigger:
			x--
		default:
			stem = append(stem, int(how))
			x = 2*g.Source(int(how)) + x%2
		}
	}
}

// fairLoop returns the edges of a loop from entry back to entry within its
// component that satisfies every fairness class: for each class it visits a
// state where the class is disabled or takes an edge of the class. It goes
// greedily from target to target, skipping classes the loop already
// satisfies, then closes the loop with a shortest path.
func fairLoop(g *Graph, cls *Classes, entry uint32, comp []uint32) []int {
	c := comp[entry]
	inside := func(s uint32) bool { return int(s) < g.expanded && comp[s] == c }
	enabledAt := func(s uint32, m []uint64) {
		clear(m)
		lo, hi := g.Edges(s)
		for e := lo; e < hi; e++ {
			set(m, cls.of(packed.Unpack(g.act.at(e))))
		}
	}
	// done holds the classes the loop satisfies so far.
	done, enabled := make([]uint64, cls.words), make([]uint64, cls.words)
	visit := func(s uint32) {
		enabledAt(s, enabled)
		for w := range done {
			done[w] |= ^enabled[w]
		}
	}
	var loop []int
	walk := func(path []int) {
		for _, e := range path {
			set(done, cls.of(packed.Unpack(g.act.at(e))))
			visit(g.to.at(e))
		}
		loop = append(loop, path...)
	}
	visit(entry)
	cur := entry
	for k := 0; k < cls.count; k++ {
		if has(done, k) {
			continue
		}
		// A state of the component where k is disabled, else an edge of k
		// inside it; the component is fair, so one exists.
		var to uint32
		edge := -1
		for s := uint32(0); int(s) < g.expanded && edge < 0; s++ {
			if !inside(s) {
				continue
			}
			if enabledAt(s, enabled); !has(enabled, k) {
				to = s
				break
			}
			lo, hi := g.Edges(s)
			for e := lo; e < hi && edge < 0; e++ {
				if inside(g.to.at(e)) && cls.of(packed.Unpack(g.act.at(e))) == k {
					to, edge = s, e
				}
			}
		}
		walk(shortestPath(g, inside, cur, to, false))
		cur = to
		if edge >= 0 {
			walk([]int{edge})
			cur = g.to.at(edge)
		}
	}
	walk(shortestPath(g, inside, cur, entry, len(loop) == 0))
	return loop
}

// shortestPath returns the edges of a shortest path from a to b through
// states for which inside holds; with nonEmpty it has at least one edge
// (a shortest cycle when a = b). A path must exist.
func shortestPath(g *Graph, inside func(uint32) bool, a, b uint32, nonEmpty bool) []int {
	if a == b && !nonEmpty {
		return nil
	}
	via := map[uint32]int{}
	queue := []uint32{a}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		lo, hi := g.Edges(s)
		for e := lo; e < hi; e++ {
			t := g.to.at(e)
			if _, seen := via[t]; seen || !inside(t) {
				continue
			}
			via[t] = e
			if t == b {
				var path []int
				for x := b; ; {
					path = append(path, via[x])
					x = g.Source(via[x])
					if x == a {
						break
					}
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			queue = append(queue, t)
		}
	}
	panic("checker: no path inside a strongly connected component")
}
