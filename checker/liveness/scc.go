package liveness

// Strongly connected components, by Tarjan's algorithm with an explicit
// stack, so that a long path in the state graph cannot overflow the
// goroutine stack.

// unvisited marks a state Tarjan has not reached.
const unvisited = ^uint32(0)

// tarjan holds the working arrays of one decomposition: 12 bytes per state
// plus the two stacks, which hold at most one entry per state each.
type tarjan struct {
	order, low []uint32 // discovery order; lowest order reachable on the stack
	comp       []uint32 // component of each finished state, in emission order
	onStack    []bool
	stack      []uint32
	frames     []frame
}

type frame struct {
	state uint32
	next  int // the next edge of state to follow
}

// sccs decomposes the sub-graph of g's expanded states for which in holds,
// with the edges between them, and calls emit once per component with its
// id, its members and the component of every state finished so far. Components are emitted in reverse topological order: every
// component reachable from C is emitted before C, so emit may rely on the
// results it computed for the successors of C. The slice it receives is
// reused. It returns the component of every state (unvisited for states
// outside the sub-graph).
func sccs(g *Graph, in func(s uint32) bool, emit func(id uint32, members, comp []uint32)) []uint32 {
	n := g.expanded
	t := &tarjan{order: make([]uint32, n), low: make([]uint32, n), comp: make([]uint32, n), onStack: make([]bool, n)}
	for i := range t.order {
		t.order[i], t.comp[i] = unvisited, unvisited
	}
	inside := func(s uint32) bool { return int(s) < n && in(s) }
	var counter, comps uint32
	visit := func(s uint32) {
		t.order[s], t.low[s] = counter, counter
		counter++
		t.stack = append(t.stack, s)
		t.onStack[s] = true
		lo, _ := g.Edges(s)
		t.frames = append(t.frames, frame{state: s, next: lo})
	}
	for root := uint32(0); int(root) < n; root++ {
		if t.order[root] != unvisited || !in(root) {
			continue
		}
		visit(root)
		for len(t.frames) > 0 {
			f := &t.frames[len(t.frames)-1]
			v := f.state
			if _, hi := g.Edges(v); f.next < hi {
				w := g.to[f.next]
				f.next++
				switch {
				case !inside(w):
				case t.order[w] == unvisited:
					visit(w)
				case t.onStack[w]:
					t.low[v] = min(t.low[v], t.order[w])
				}
				continue
			}
			t.frames = t.frames[:len(t.frames)-1]
			if t.low[v] == t.order[v] {
				i := len(t.stack) - 1
				for t.stack[i] != v {
					i--
				}
				members := t.stack[i:]
				for _, m := range members {
					t.onStack[m] = false
					t.comp[m] = comps
				}
				emit(comps, members, t.comp)
				comps++
				t.stack = t.stack[:i]
			}
			if len(t.frames) > 0 {
				u := t.frames[len(t.frames)-1].state
				t.low[u] = min(t.low[u], t.low[v])
			}
		}
	}
	return t.comp
}
