package liveness

import (
	"fmt"

	"mc/checker/internal/packed"
	"mc/model"
)

// Graph is the reachable state graph a liveness check needs: unlike the
// checker's breadth-first search, which keeps one origin per state, it
// stores every transition with its action, since cycles are made of the
// transitions the breadth-first tree leaves out. (Sweeps read it too, for
// the costs of complete runs.)
//
// States are numbered 0, 1, … in breadth-first discovery order. The edges of
// state s are to[first[s]:first[s+1]] with the packed actions act[…], in the
// order the spec enumerates actions. Only states below expanded have their
// edge lists; when a limit stops the build, the rest are known but
// unexplored, and the liveness check ignores them (see the package doc).
//
// Memory per state: the index from fingerprint to state (an open-addressing
// table, 16 to 32 bytes; with Limits.Exact a Go map of full encodings
// instead), the fingerprint (8), the edge offset (4) and one bit per
// liveness predicate (a goal that is "terminal" is set when the state is
// expanded); per transition 8 bytes (target and action). The SCC
// decomposition and the lasso search add about 20 bytes per state while a
// property is checked.
type Graph struct {
	index    stateIndex
	fp       []uint64
	first    []uint32
	to, act  []uint32
	init     []uint32 // the state of each initial state, in sys.Init order
	expanded int
	// depth is the breadth-first level of the last state expanded.
	depth int
	// from[i] and goal[i] hold, per state, P and Q of the i-th liveness
	// property (bit sets; from is unused for Eventually).
	from, goal [][]uint64
	stop       string
}

// maxEdges keeps edge offsets within 32 bits.
const maxEdges = 1<<32 - 2

// States is the number of states stored, Expanded the number of them whose
// transitions are all stored (the first ones: states are numbered
// breadth-first), and Transitions the number of transitions.
func (g *Graph) States() int      { return len(g.fp) }
func (g *Graph) Expanded() int    { return g.expanded }
func (g *Graph) Transitions() int { return len(g.to) }

// Depth is the breadth-first level of the last state expanded.
func (g *Graph) Depth() int { return g.depth }

// Stop says why the build stopped early, or "" if it did not.
func (g *Graph) Stop() string { return g.stop }

// Init lists the state of each initial state, in sys.Init's order.
func (g *Graph) Init() []uint32 { return g.init }

// FP is the fingerprint of state s.
func (g *Graph) FP(s uint32) uint64 { return g.fp[s] }

// Edges returns the range of the expanded state s's edges.
func (g *Graph) Edges(s uint32) (lo, hi int) { return int(g.first[s]), int(g.first[s+1]) }

// To is the state edge e leads to, and Action its action.
func (g *Graph) To(e int) uint32           { return g.to[e] }
func (g *Graph) Action(e int) model.Action { return packed.Unpack(g.act[e]) }

// Terminal reports whether the expanded state s has no enabled action.
func (g *Graph) Terminal(s uint32) bool { return g.first[s] == g.first[s+1] }

// Source returns the state whose edge list holds edge e.
func (g *Graph) Source(e int) uint32 {
	lo, hi := 0, g.expanded-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if int(g.first[mid]) <= e {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return uint32(lo)
}

// Bytes estimates the memory the graph holds.
func (g *Graph) Bytes() int64 {
	b := g.index.bytes() + int64(cap(g.fp))*8 + int64(cap(g.first))*4 + int64(cap(g.to)+cap(g.act))*4
	for i := range g.from {
		b += int64(cap(g.from[i])+cap(g.goal[i])) * 8
	}
	return b
}

func bit(m []uint64, s uint32) bool { return m[s/64]&(1<<(s%64)) != 0 }

// Limits bound a graph's build: MaxStates (0: none) stops it; Exact tells
// states apart by their full encodings instead of their fingerprints.
type Limits struct {
	MaxStates int64
	Exact     bool
}

// Guard holds the run's other limits (cancellation, time, memory) through
// a graph's build, and hears its progress.
type Guard interface {
	// Exceeded says why the build must stop now, or "" to go on; reserve
	// is the memory the caller will still need beyond what is in use.
	Exceeded(reserve int64) string
	// Progress reports how far the build is: the states stored and
	// transitions, the level and the states left to expand, the memory.
	Progress(states, transitions int64, depth, frontier int, bytes int64)
}

// Build explores sys breadth-first and stores its whole state graph,
// evaluating the predicates of the liveness properties props on every
// state, and calling visit, if not nil, on every state as it is stored (in
// the order of their numbers). It stops early, recording why (Stop), at
// lim.MaxStates or when guard says so, keeping reserve bytes per state free
// under the memory limit for what the caller does with the graph; it
// reports its progress to guard.
func Build[S any](sys *model.System[S], props []*model.Property[S], lim Limits, guard Guard, reserve int64, visit func(id uint32, s *S)) (*Graph, error) {
	g := &Graph{from: make([][]uint64, len(props)), goal: make([][]uint64, len(props))}
	if lim.Exact {
		g.index = &exactIndex{ids: map[string]uint32{}}
	} else {
		g.index = newFingerprintIndex()
	}
	// pending holds the encodings of discovered, unexpanded states, in
	// state order; ends[i] is where state head+i's encoding ends.
	var pending []byte
	var ends []int
	head, consumed := 0, 0
	var buf []byte
	add := func(s *S) (uint32, bool) {
		buf = sys.Encode(buf[:0], s)
		fp := model.Fingerprint(buf)
		if id, ok := g.index.find(buf, fp); ok {
			return id, true
		}
		if lim.MaxStates > 0 && int64(len(g.fp)) >= lim.MaxStates {
			g.stop = fmt.Sprintf("state limit %d reached", lim.MaxStates)
			return 0, false
		}
		id := uint32(len(g.fp))
		g.index.add(buf, fp, id)
		g.fp = append(g.fp, fp)
		if id%64 == 0 {
			for i := range props {
				g.from[i], g.goal[i] = append(g.from[i], 0), append(g.goal[i], 0)
			}
		}
		for i, p := range props {
			if p.From != nil && p.From(s) {
				g.from[i][id/64] |= 1 << (id % 64)
			}
			if p.State != nil && p.State(s) {
				g.goal[i][id/64] |= 1 << (id % 64)
			}
		}
		if visit != nil {
			visit(id, s)
		}
		pending = append(pending, buf...)
		ends = append(ends, len(pending))
		return id, true
	}
	for i := range sys.Init {
		id, ok := add(&sys.Init[i])
		if !ok {
			return g, nil
		}
		g.init = append(g.init, id)
	}
	var cur, next S
	g.first = append(g.first, 0)
	// States are numbered breadth-first: those below levelEnd are at
	// g.depth or less.
	levelEnd := len(g.fp)
	for s := 0; s < len(g.fp); s++ {
		if s == levelEnd {
			g.depth, levelEnd = g.depth+1, len(g.fp)
		}
		if s&255 == 0 {
			if g.stop = guard.Exceeded(int64(len(g.fp)) * reserve); g.stop != "" {
				return g, nil
			}
			guard.Progress(int64(len(g.fp)), int64(len(g.to)), g.depth, len(g.fp)-s, g.Bytes())
		}
		data := pending[consumed:ends[s-head]]
		consumed = ends[s-head]
		if err := sys.Decode(data, &cur); err != nil {
			return nil, fmt.Errorf("internal error: state %d does not decode: %v", s, err)
		}
		for ri := range sys.Rules {
			r := &sys.Rules[ri]
			for p := 0; p < sys.Procs; p++ {
				nc := r.ChoicesAt(&cur, p)
				if nc > packed.MaxChoices {
					return nil, fmt.Errorf("internal error: rule %s has %d choices; mc supports at most %d", r.Name, nc, packed.MaxChoices)
				}
				for k := 0; k < nc; k++ {
					sys.Copy(&next, &cur)
					if !r.Do(&next, p, k) {
						continue
					}
					t, ok := add(&next)
					if !ok {
						g.to, g.act = g.to[:g.first[s]], g.act[:g.first[s]]
						return g, nil
					}
					if len(g.to) >= maxEdges {
						g.stop = "the graph exceeds 2^32 transitions"
						g.to, g.act = g.to[:g.first[s]], g.act[:g.first[s]]
						return g, nil
					}
					g.to = append(g.to, t)
					g.act = append(g.act, packed.Action(model.Action{Rule: ri, Proc: p, Choice: k}))
				}
			}
		}
		g.first = append(g.first, uint32(len(g.to)))
		g.expanded = s + 1
		if g.Terminal(uint32(s)) {
			for i, p := range props {
				if p.Terminal {
					g.goal[i][s/64] |= 1 << (s % 64)
				}
			}
		}
		// Drop the expanded encodings now and then.
		if consumed > 1<<20 && consumed > len(pending)/2 {
			pending = append(pending[:0], pending[consumed:]...)
			for i := s + 1 - head; i < len(ends); i++ {
				ends[i] -= consumed
			}
			ends = ends[s+1-head:]
			head, consumed = s+1, 0
		}
	}
	return g, nil
}

// stateIndex maps a state to its number in the graph.
type stateIndex interface {
	find(enc []byte, fp uint64) (uint32, bool)
	add(enc []byte, fp uint64, id uint32)
	bytes() int64
}

// fingerprintIndex is an open-addressing table from 64-bit fingerprints to
// state numbers, with linear probing; it grows at 3/4 load. Fingerprint 0
// marks an empty slot, so a real 0 is stored as 1, which merges two
// fingerprints, no worse than any other 64-bit collision.
type fingerprintIndex struct {
	keys []uint64
	ids  []uint32
	n    int
}

func newFingerprintIndex() *fingerprintIndex {
	return &fingerprintIndex{keys: make([]uint64, 1<<12), ids: make([]uint32, 1<<12)}
}

func (t *fingerprintIndex) slot(fp uint64) (int, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case fp:
			return int(i), true
		case 0:
			return int(i), false
		}
	}
}

func (t *fingerprintIndex) find(_ []byte, fp uint64) (uint32, bool) {
	i, ok := t.slot(max(fp, 1))
	return t.ids[i], ok
}

func (t *fingerprintIndex) add(_ []byte, fp uint64, id uint32) {
	if 4*(t.n+1) > 3*len(t.keys) {
		old, oldIDs := t.keys, t.ids
		t.keys, t.ids = make([]uint64, 2*len(old)), make([]uint32, 2*len(old))
		for j, k := range old {
			if k != 0 {
				i, _ := t.slot(k)
				t.keys[i], t.ids[i] = k, oldIDs[j]
			}
		}
	}
	i, _ := t.slot(max(fp, 1))
	t.keys[i], t.ids[i] = max(fp, 1), id
	t.n++
}

func (t *fingerprintIndex) bytes() int64 { return int64(len(t.keys)) * 12 }

// exactIndex keys states by their full encodings (Limits.Exact): no
// collision can merge two states, at the cost of the encodings' memory.
type exactIndex struct{ ids map[string]uint32 }

func (x *exactIndex) find(enc []byte, _ uint64) (uint32, bool) {
	id, ok := x.ids[string(enc)]
	return id, ok
}

func (x *exactIndex) add(enc []byte, _ uint64, id uint32) { x.ids[string(enc)] = id }

func (x *exactIndex) bytes() int64 {
	b := int64(len(x.ids)) * 40
	for k := range x.ids {
		b += int64(len(k))
	}
	return b
}
