package liveness

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
)

// Graph is the reachable state graph a liveness check needs: unlike the
// checker's breadth-first search, which keeps one origin per state, it
// stores every transition with its action, since cycles are made of the
// transitions the breadth-first tree leaves out. (Sweeps read it too, for
// the costs of complete runs.)
//
// States are numbered 0, 1, … in breadth-first discovery order. The edges of
// state s are to[first[s]:first[s+1]] with their actions act[…], in the
// order the spec enumerates actions. Only states below expanded have their
// edge lists; when a limit stops the build, the rest are known but
// unexplored, and the liveness check ignores them (see the package doc).
//
// Everything is a flat array of numbers (column.go): no Go object per
// state. Per transition: the target (4 bytes) and the action's code (1, 2
// or 4 bytes, actions.go). Per state: the fingerprint (8), the edge offset
// (4) and one bit per liveness predicate (a goal that is "terminal" is set
// when the state is expanded). While the graph is built, the index from
// fingerprint to state (index.go) adds 5 to 11 bytes per state; it is
// dropped when the build ends. The decomposition into components and the
// lasso search add their own arrays (scc.go, lasso.go); PeakBytes counts
// the most all of it held at once.
//
// With Limits.Spill the edges may go to disk (column.go); the per-state
// arrays stay in memory.
type Graph struct {
	index    stateIndex // nil once the build is done
	fp       column[uint64]
	first    column[uint32]
	to       column[uint32]
	act      actionColumn
	init     []uint32 // the state of each initial state, in sys.Init order
	expanded int
	// depth is the breadth-first level of the last state expanded.
	depth int
	// from[i] and goal[i] hold, per state, P and Q of the i-th liveness
	// property (bit sets; from is unused for Eventually).
	from, goal [][]uint64
	stop       string
	// guard holds the run's limits through the analyses of the built graph
	// too; halt says why one of them stopped, or "".
	guard Guard
	halt  string
	// peak is the most memory the graph and one analysis's working arrays
	// held at once, so far; working lists the working arrays' size of
	// every analysis run, for the analyses run side by side (Parallel).
	peak    int64
	working []int64
	spilled bool
	// mu guards halt, peak and working, and the calls of guard, once the
	// graph is built: its analyses may run in parallel (Parallel), the
	// graph itself being read-only by then.
	mu sync.Mutex
	// halted is set with halt, for the analyses to see between two calls
	// of the guard.
	halted atomic.Bool
}

// maxEdges keeps edge offsets within 32 bits.
const maxEdges = 1<<32 - 2

// States is the number of states stored, Expanded the number of them whose
// transitions are all stored (the first ones: states are numbered
// breadth-first), and Transitions the number of transitions.
func (g *Graph) States() int      { return g.fp.len() }
func (g *Graph) Expanded() int    { return g.expanded }
func (g *Graph) Transitions() int { return g.to.len() }

// Depth is the breadth-first level of the last state expanded.
func (g *Graph) Depth() int { return g.depth }

// Stop says why the build stopped early, or "" if it did not.
func (g *Graph) Stop() string { return g.stop }

// Halted says why an analysis of the built graph (CountCycles, FindLasso)
// stopped before its end, the guard Build was given having said so; its
// result is then void. "" if none did.
func (g *Graph) Halted() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.halt
}

// Init lists the state of each initial state, in sys.Init's order.
func (g *Graph) Init() []uint32 { return g.init }

// FP is the fingerprint of state s.
func (g *Graph) FP(s uint32) uint64 { return g.fp.at(int(s)) }

// Edges returns the range of the expanded state s's edges.
func (g *Graph) Edges(s uint32) (lo, hi int) {
	return int(g.first.at(int(s))), int(g.first.at(int(s) + 1))
}

// To is the state edge e leads to, and Action its action.
func (g *Graph) To(e int) uint32           { return g.to.at(e) }
func (g *Graph) Action(e int) model.Action { return packed.Unpack(g.act.at(e)) }

// Holds reports whether P (from) and Q (goal) of the i-th liveness
// property hold at state s; Q of an "eventually terminal" goal holds at
// the expanded terminal states.
func (g *Graph) Holds(i int, s uint32) (from, goal bool) {
	return bit(g.from[i], s), bit(g.goal[i], s)
}

// Terminal reports whether the expanded state s has no enabled action.
func (g *Graph) Terminal(s uint32) bool { return g.first.at(int(s)) == g.first.at(int(s)+1) }

// Source returns the state whose edge list holds edge e.
func (g *Graph) Source(e int) uint32 {
	lo, hi := 0, g.expanded-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if int(g.first.at(mid)) <= e {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return uint32(lo)
}

// Bytes is the memory the graph holds now: its arrays, the bit sets and,
// during the build, the index.
func (g *Graph) Bytes() int64 {
	b := g.fp.bytes() + g.first.bytes() + g.to.bytes() + g.act.bytes()
	if g.index != nil {
		b += g.index.bytes()
	}
	for i := range g.from {
		b += int64(cap(g.from[i])+cap(g.goal[i])) * 8
	}
	return b
}

// PeakBytes is the most memory the graph, with the index during its build
// and the working arrays of one analysis at a time, held at once: what a
// check with one worker holds. ParallelBytes adds what analyses run side
// by side hold beyond that.
func (g *Graph) PeakBytes() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return max(g.peak, g.Bytes())
}

// ParallelBytes bounds the working arrays that analyses running beside the
// largest one held, when at most workers run at once: the sum of the
// workers−1 next largest analyses' arrays (0 for one worker).
func (g *Graph) ParallelBytes(workers int) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := slices.Clone(g.working)
	slices.Sort(w)
	slices.Reverse(w)
	var sum int64
	for i := 1; i < len(w) && i < workers; i++ {
		sum += w[i]
	}
	return sum
}

// notePeak records that an analysis holds working bytes beside the graph.
func (g *Graph) notePeak(working int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.peak = max(g.peak, g.Bytes()+working)
	if g.index == nil {
		g.working = append(g.working, working)
	}
}

// DiskBytes is the size of the graph's files: 0 unless its edges went to
// disk (Spilled).
func (g *Graph) DiskBytes() int64 { return g.to.diskBytes() + g.act.diskBytes() }

// Spilled reports whether the edges are on disk.
func (g *Graph) Spilled() bool { return g.spilled }

// Free removes the graph's files, if it has any, and unmaps them; the graph
// is empty afterwards.
func (g *Graph) Free() error {
	err := g.to.free()
	if e := g.act.free(); err == nil {
		err = e
	}
	*g = Graph{}
	return err
}

// check asks the guard, every 2^16 calls of an analysis (count is the
// analysis's step counter), whether to stop, and records why in g.halt.
func (g *Graph) check(count int) bool {
	if count&0xFFFF != 0 || g.halted.Load() {
		return g.halted.Load()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.guard != nil && g.halt == "" {
		g.halt = g.guard.Exceeded(0)
	}
	g.halted.Store(g.halt != "")
	return g.halt != ""
}

// Check asks the guard now whether an analysis about to start must not,
// and records why in g.halt (Halted).
func (g *Graph) Check() bool { return g.check(0) }

func bit(m []uint64, s uint32) bool { return m[s/64]&(1<<(s%64)) != 0 }

// Limits bound a graph's build: MaxStates (0: none) stops it; Exact tells
// states apart by their full encodings instead of their fingerprints;
// Spill, if not nil, lets the edges go to disk.
type Limits struct {
	MaxStates int64
	Exact     bool
	Spill     *Spill
	// Workers is the number of goroutines that expand the states of a
	// level (expand.go); the graph is the same for any number.
	Workers int
	// Reduce, if not nil, keeps only the edges of ample sets chosen under
	// it (reduced.go): the reduced graph of mc check --por, for analyses
	// of complete runs (sweep's costs), not for the liveness check, whose
	// properties it refuses. It is built on one goroutine.
	Reduce *por.Reducer
}

// Spill says when a graph's edges go to disk, and where: always (Always),
// or once memory is short (Tight), when the graph would otherwise stop at
// the memory limit. The files go in the directory Dir returns; the caller
// removes it after Free.
type Spill struct {
	Always bool
	// Tight reports whether the memory in use plus reserve bytes passes
	// the memory limit.
	Tight func(reserve int64) bool
	Dir   func() (string, error)
}

// Guard holds the run's other limits (cancellation, time, memory) through
// a graph's build and its analyses, and hears the build's progress.
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
	g := &Graph{from: make([][]uint64, len(props)), goal: make([][]uint64, len(props)), guard: guard, act: newActionColumn()}
	if lim.Exact {
		g.index = &exactIndex{ids: map[string]uint32{}}
	} else {
		g.index = newFingerprintIndex(&g.fp)
	}
	err := build(g, sys, props, lim, reserve, visit)
	if err == nil {
		err = g.finish()
	}
	if err != nil {
		g.Free()
		return nil, err
	}
	return g, nil
}

// spill sends the edges to disk, in the directory lim.Spill gives.
func (g *Graph) spill(lim Limits) error {
	dir, err := lim.Spill.Dir()
	if err != nil {
		return fmt.Errorf("liveness graph: %w", err)
	}
	if err := g.to.spill(filepath.Join(dir, "graph.to")); err != nil {
		return fmt.Errorf("liveness graph: %w", err)
	}
	if err := g.act.spill(filepath.Join(dir, "graph.act")); err != nil {
		return fmt.Errorf("liveness graph: %w", err)
	}
	g.spilled = true
	// The edges' chunks are garbage now: let the memory limit see it.
	debug.FreeOSMemory()
	return nil
}

// finish ends the build: the index goes, and edges on disk are mapped.
func (g *Graph) finish() error {
	g.notePeak(0)
	g.index = nil
	if err := g.to.finish(); err != nil {
		return fmt.Errorf("liveness graph: %w", err)
	}
	if err := g.act.finish(); err != nil {
		return fmt.Errorf("liveness graph: %w", err)
	}
	return nil
}

// build is Build's exploration, level by level (expand.go); a limit that
// stops it is recorded in g.stop, and only an error is returned.
func build[S any](g *Graph, sys *model.System[S], props []*model.Property[S], lim Limits, reserve int64, visit func(id uint32, s *S)) error {
	if lim.Spill != nil && lim.Spill.Always {
		if err := g.spill(lim); err != nil {
			return err
		}
	}
	// next holds the encodings of the states discovered for the next
	// level, in state order.
	var next level
	var scratch S
	var red *reduction
	if lim.Reduce != nil {
		if len(props) > 0 {
			return fmt.Errorf("internal error: a reduced graph cannot decide liveness properties")
		}
		red = &reduction{r: lim.Reduce, find: g.index.find}
	}
	// add stores the state encoded as enc, if new, with its predicates
	// (pred(i, 0) is P of the i-th property, pred(i, 1) its Q); false
	// means a limit stopped the build.
	add := func(enc []byte, fp uint64, pred func(i, which int) bool) (uint32, bool, error) {
		if id, ok := g.index.find(enc, fp); ok {
			return id, true, nil
		}
		if lim.MaxStates > 0 && int64(g.fp.len()) >= lim.MaxStates {
			g.stop = fmt.Sprintf("state limit %d reached", lim.MaxStates)
			return 0, false, nil
		}
		id := uint32(g.fp.len())
		g.fp.push(fp) // in memory: no error
		g.index.add(enc, fp, id)
		if id%64 == 0 {
			for i := range props {
				g.from[i], g.goal[i] = append(g.from[i], 0), append(g.goal[i], 0)
			}
		}
		for i, p := range props {
			if p.From != nil && pred(i, 0) {
				g.from[i][id/64] |= 1 << (id % 64)
			}
			if p.State != nil && pred(i, 1) {
				g.goal[i][id/64] |= 1 << (id % 64)
			}
		}
		if visit != nil {
			if err := sys.Decode(enc, &scratch); err != nil {
				return 0, false, fmt.Errorf("internal error: state %d does not decode: %v", id, err)
			}
			visit(id, &scratch)
		}
		next.enc = append(next.enc, enc...)
		next.ends = append(next.ends, len(next.enc))
		return id, true, nil
	}
	var buf []byte
	for i := range sys.Init {
		s := &sys.Init[i]
		buf = sys.Encode(buf[:0], s)
		id, ok, err := add(buf, model.Fingerprint(buf), func(i, which int) bool {
			if which == 0 {
				return props[i].From(s)
			}
			return props[i].State(s)
		})
		if err != nil || !ok {
			return err
		}
		g.init = append(g.init, id)
	}
	g.first.push(0)
	// cut drops the edges of the state being expanded, which a limit
	// stopped.
	cut := func(s int) {
		lo := int(g.first.at(s))
		g.to.truncate(lo)
		g.act.truncate(lo)
	}
	var err error
	for base := 0; len(next.ends) > 0; {
		if base > 0 {
			g.depth++
		}
		cur := next
		next = level{}
		// States are numbered breadth-first: cur's are base, base+1, …
		expandLevel(sys, props, &cur, lim.Workers, red, base, func(first int, b *successors) bool {
			e := 0
			for k, n := range b.count {
				s := base + first + k
				if s&255 == 0 {
					if lim.Spill != nil && !g.spilled && lim.Spill.Tight(int64(g.fp.len())*reserve) {
						if err = g.spill(lim); err != nil {
							return false
						}
					}
					if g.stop = g.guard.Exceeded(int64(g.fp.len()) * reserve); g.stop != "" {
						return false
					}
					g.guard.Progress(int64(g.fp.len()), int64(g.to.len()), g.depth, g.fp.len()-s, g.Bytes())
				}
				for ; n > 0; n, e = n-1, e+1 {
					start := 0
					if e > 0 {
						start = b.ends[e-1]
					}
					t, ok, aerr := add(b.enc[start:b.ends[e]], b.fp[e], func(i, which int) bool { return b.pred(e, 2*i+which) })
					if err = aerr; err != nil {
						return false
					}
					if !ok {
						cut(s)
						return false
					}
					if g.to.len() >= maxEdges {
						g.stop = "the graph exceeds 2^32 transitions"
						cut(s)
						return false
					}
					if err = g.to.push(t); err != nil {
						return false
					}
					if err = g.act.push(b.act[e]); err != nil {
						return false
					}
				}
				g.first.push(uint32(g.to.len()))
				g.expanded = s + 1
				if g.Terminal(uint32(s)) {
					for i, p := range props {
						if p.Terminal {
							g.goal[i][s/64] |= 1 << (s % 64)
						}
					}
				}
			}
			if b.err != nil {
				err = fmt.Errorf("internal error: state %d does not expand: %v", base+first+len(b.count), b.err)
				return false
			}
			return true
		})
		if err != nil || g.stop != "" {
			return err
		}
		base += len(cur.ends)
	}
	return nil
}
