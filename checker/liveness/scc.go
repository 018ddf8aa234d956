package liveness

// Strongly connected components, by Pearce's space-efficient variant of
// Tarjan's algorithm ("A space-efficient algorithm for finding strongly
// connected components", Information Processing Letters 116(1), 2016),
// with explicit stacks, so that a long path in the state graph cannot
// overflow the goroutine stack. Tarjan keeps a discovery order, a low link
// and a component per state, and an on-stack flag; Pearce keeps one number
// per state, rindex, which is the low link while the state is being
// visited and its component once that is finished, plus one bit (is it the
// root of its component so far): 4 bytes and a bit per state, and the
// stacks, which hold each state at most once.
//
// The two kinds of values cannot be confused: visit numbers are handed out
// from 1 up and given back when a component is finished, component numbers
// from n down, so every finished state's number is above every active
// one's, and the test "rindex[w] < rindex[v]" only ever follows an edge to
// an active state. 0 marks a state not reached.

// unvisited marks a state outside the decomposed sub-graph.
const unvisited = ^uint32(0)

// sccs decomposes the sub-graph of g's expanded states for which in holds,
// with the edges between them, and calls emit once per component with its
// id (0, 1, … in the order of emission) and its members; compOf gives the
// id of a state of a component already emitted or being emitted.
// Components are emitted in reverse topological order: every component
// reachable from C is emitted before C, so emit may rely on the results it
// computed for the successors of C. The slice it receives is reused. It
// returns the component of every state (unvisited for states outside the
// sub-graph), or nil if g's guard stopped it (g.Halted).
func sccs(g *Graph, in func(s uint32) bool, emit func(id uint32, members []uint32, compOf func(uint32) uint32)) []uint32 {
	n := uint32(g.expanded)
	rindex := make([]uint32, n)
	root := make([]uint64, (n+63)/64)
	// The visit stack, with the next edge to follow of each state on it,
	// and the stack of finished states whose component is not.
	var vS, eS, S []uint32
	index, c := uint32(1), n
	compOf := func(s uint32) uint32 { return n - rindex[s] }
	inside := func(s uint32) bool { return s < n && in(s) }
	begin := func(v uint32) {
		vS = append(vS, v)
		eS = append(eS, g.first.at(int(v)))
		root[v/64] |= 1 << (v % 64)
		rindex[v] = index
		index++
	}
	// stepped counts the edges followed, for the guard.
	stepped := 0
	for r := uint32(0); r < n; r++ {
		if rindex[r] != 0 || !in(r) {
			continue
		}
		begin(r)
		for len(vS) > 0 {
			top := len(vS) - 1
			v, e := vS[top], eS[top]
			lo, hi := g.first.at(int(v)), g.first.at(int(v)+1)
			descended := false
			for ; ; e++ {
				if e > lo { // the edge before e is done with: take its low link
					if w := g.to.at(int(e - 1)); inside(w) && rindex[w] < rindex[v] {
						rindex[v] = rindex[w]
						root[v/64] &^= 1 << (v % 64)
					}
				}
				if e == hi {
					break
				}
				stepped++
				if g.check(stepped) {
					return nil
				}
				if w := g.to.at(int(e)); inside(w) && rindex[w] == 0 {
					eS[top] = e + 1
					begin(w)
					descended = true
					break
				}
			}
			if descended {
				continue
			}
			vS, eS = vS[:top], eS[:top]
			if root[v/64]&(1<<(v%64)) == 0 {
				S = append(S, v)
				continue
			}
			i := len(S)
			for i > 0 && rindex[v] <= rindex[S[i-1]] {
				i--
			}
			members := append(S[i:], v)
			for _, m := range members {
				rindex[m] = c
			}
			index -= uint32(len(members))
			emit(n-c, members, compOf)
			c--
			S = S[:i]
		}
	}
	g.notePeak(int64(cap(rindex))*4 + int64(cap(root))*8 + int64(cap(vS)+cap(eS)+cap(S))*4)
	for s, x := range rindex {
		if x == 0 {
			rindex[s] = unvisited
		} else {
			rindex[s] = n - x
		}
	}
	return rindex
}
