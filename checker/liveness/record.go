package liveness

import (
	"fmt"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// Recorder fills the graph as the checker's breadth-first search goes, an
// extension of that search (package checker/extension), as TLC fills its
// behaviour graph during its own search: the run explores the model once,
// instead of once for its safety properties and again for Build.
//
// The search admits states in the order Build numbers them (candidates in
// frontier order, the first of each state winning), so the recorded graph
// is Build's: the same numbers, the same edges in the same order, the same
// predicates (P and Q are evaluated on each state as it is expanded, and
// every state of a complete search is). The recorder keeps its own index
// from state to number (index.go, the one Build keeps), by which the
// workers number the edges to stored states; an edge to a state the same
// round found new is numbered when the round is committed.
//
// Only a complete search's graph is used (Graph); a search a limit stops
// leaves the liveness phase to build the graph itself, as it did before,
// so that a partial graph has one meaning, Build's. The recorder lets go of
// its graph (Drop) when memory runs short, so that the graph never costs
// the search its own room: the liveness phase then builds it after the
// search, with the search's memory handed back.
type Recorder[S any] struct {
	props []*model.Property[S]
	words int // bit words per state for P and Q
	g     *Graph
	st    store.Store
	// tight reports, between rounds, whether memory is too short to keep
	// a graph of the given number of states.
	tight func(states int64) bool
	// dropped says why the graph was let go, "" while it is kept; err is
	// the first inconsistency met, returned at the level's end.
	dropped string
	err     error
}

// NewRecorder returns a recorder of the graph of sys for the liveness
// properties props, telling states apart by their encodings if exact,
// which drops its graph once tight says that memory is too short.
func NewRecorder[S any](props []*model.Property[S], exact bool, tight func(states int64) bool) *Recorder[S] {
	g := &Graph{from: make([][]uint64, len(props)), goal: make([][]uint64, len(props)), act: newActionColumn()}
	if exact {
		g.index = &exactIndex{ids: map[string]uint32{}}
	} else {
		g.index = newFingerprintIndex(&g.fp)
	}
	g.first.push(0) // in memory: no error
	return &Recorder[S]{props: props, words: (2*len(props) + 63) / 64, g: g, tight: tight}
}

// Graph returns the recorded graph, its index dropped, with guard to hold
// the run's limits through its analyses; nil if the recorder let it go.
// The caller owns it (Graph.Free).
func (r *Recorder[S]) Graph(guard Guard) (*Graph, error) {
	if r.g == nil {
		return nil, r.err
	}
	g := r.g
	r.g = nil
	g.guard = guard
	if err := g.finish(); err != nil {
		g.Free()
		return nil, err
	}
	return g, nil
}

// DroppedForMemory is why a recorder lets its graph go when memory in use
// and the graph's analyses' need would pass the run's limit (Drop).
const DroppedForMemory = "memory"

// Dropped says why the recorder let its graph go, "" if it holds it or
// is nil.
func (r *Recorder[S]) Dropped() string {
	if r == nil {
		return ""
	}
	return r.dropped
}

// Holds reports whether the recorder holds its graph.
func (r *Recorder[S]) Holds() bool { return r != nil && r.g != nil }

// Drop lets the graph go, for the reason why; a nil recorder has none.
func (r *Recorder[S]) Drop(why string) {
	if !r.Holds() {
		return
	}
	r.g.Free()
	r.g, r.dropped = nil, why
}

// fail drops the graph on an inconsistency, which EndLevel reports.
func (r *Recorder[S]) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.Drop("internal error")
}

func (r *Recorder[S]) PayloadBits() int { return 0 }

// Open takes the visited set, which answers the workers' lookups; a store
// that defers them (disk) or a reduced search keeps edges the graph cannot
// number as the search goes: the graph is then left to Build.
func (r *Recorder[S]) Open(st store.Store, _ store.PayloadLayout, deferred bool) {
	r.st = st
	if !deferred {
		r.Drop("the search defers its lookups")
	}
}

func (r *Recorder[S]) NewChunk() extension.Chunk { return &recordChunk{} }

// Initial notes the candidate of an initial state, numbered once the round
// is committed.
func (r *Recorder[S]) Initial(_ *S, c *store.Candidates, ch extension.Chunk) {
	k := ch.(*recordChunk)
	k.inits = append(k.inits, int32(c.Len()-1))
}

// Admit numbers candidate i of c as the state id.
func (r *Recorder[S]) Admit(id uint32, c *store.Candidates, i int, ch extension.Chunk) {
	g := r.g
	if g == nil {
		return
	}
	if int(id) != g.fp.len() || ch == nil {
		r.fail(fmt.Errorf("internal error: the liveness graph was given state %d as its state %d", id, g.fp.len()))
		return
	}
	fp := c.FPs[i]
	g.fp.push(fp) // in memory: no error
	g.index.add(c.Enc(i), fp, id)
	if id%64 == 0 {
		for p := range r.props {
			g.from[p], g.goal[p] = append(g.from[p], 0), append(g.goal[p], 0)
		}
	}
	k := ch.(*recordChunk)
	for len(k.ids) <= i {
		k.ids = append(k.ids, store.NotStored)
	}
	k.ids[i] = id
}

// Committed appends the edges of the round's expanded states, chunk by
// chunk in frontier order, and lets the graph go if memory is short. A
// round the store did not admit whole ends an incomplete search, whose
// graph is not used.
func (r *Recorder[S]) Committed(round []extension.Committed, complete bool) {
	if r.g == nil {
		return
	}
	if !complete {
		r.Drop("the search stopped")
		return
	}
	for _, c := range round {
		if err := r.take(c.Cands, c.Chunk.(*recordChunk)); err != nil {
			r.fail(err)
		}
		if r.g == nil {
			return
		}
	}
	if r.tight != nil && r.tight(int64(r.g.fp.len())) {
		r.Drop(DroppedForMemory)
	}
}

// take appends to the graph the initial states and the expanded states'
// edges and predicates of one committed chunk, k, whose candidates are c.
func (r *Recorder[S]) take(c *store.Candidates, k *recordChunk) error {
	g := r.g
	if k.missing {
		return fmt.Errorf("internal error: a successor the store holds is not in the liveness graph")
	}
	for _, j := range k.inits {
		id, err := r.candidate(c, k, int(j))
		if err != nil {
			return err
		}
		g.init = append(g.init, id)
	}
	if len(k.counts) > 0 && k.first != uint32(g.expanded) {
		return fmt.Errorf("internal error: the liveness graph expected state %d, got state %d", g.expanded, k.first)
	}
	e := 0
	for n, count := range k.counts {
		s := g.expanded
		if g.to.len()+int(count) >= maxEdges {
			r.Drop("the graph exceeds 2^32 transitions")
			return nil
		}
		for end := e + int(count); e < end; e++ {
			t := k.to[e]
			if t < 0 {
				id, err := r.candidate(c, k, int(-1-t))
				if err != nil {
					return err
				}
				t = int64(id)
			}
			if err := g.to.push(uint32(t)); err != nil {
				return err
			}
			if err := g.act.push(k.act[e]); err != nil {
				return err
			}
		}
		if err := g.first.push(uint32(g.to.len())); err != nil {
			return err
		}
		preds := k.preds[n*r.words : (n+1)*r.words]
		for p, pr := range r.props {
			if pr.From != nil && preds[2*p/64]&(1<<(2*p%64)) != 0 {
				g.from[p][s/64] |= 1 << (s % 64)
			}
			if pr.State != nil && preds[(2*p+1)/64]&(1<<((2*p+1)%64)) != 0 || pr.Terminal && count == 0 {
				g.goal[p][s/64] |= 1 << (s % 64)
			}
		}
		g.expanded = s + 1
	}
	return nil
}

// candidate is the number of candidate j of the chunk k, whose candidates
// are c: the state it was admitted as, or, when an earlier chunk of the
// round admitted the same state, that state's, from the index.
func (r *Recorder[S]) candidate(c *store.Candidates, k *recordChunk, j int) (uint32, error) {
	if j < len(k.ids) && k.ids[j] != store.NotStored {
		return k.ids[j], nil
	}
	if id, ok := r.g.index.find(c.Enc(j), c.FPs[j]); ok {
		return id, nil
	}
	return 0, fmt.Errorf("internal error: a candidate of the search is not in the liveness graph")
}

// StartLevel notes the depth of the level about to be expanded: the
// graph's depth is that of the last level expanded.
func (r *Recorder[S]) StartLevel(depth int, _ uint32) {
	if r.g != nil {
		r.g.depth = depth
	}
}

// EndLevel reports an inconsistency the level met.
func (r *Recorder[S]) EndLevel(int) error { return r.err }

func (r *Recorder[S]) BeforeCheckpoint(extension.Level) error { return nil }

// Reached is the disk store's, which the recorder does not ride on (Open).
func (r *Recorder[S]) Reached(uint32, uint32) {}

// EndRun keeps the graph for the liveness phase (Graph).
func (r *Recorder[S]) EndRun() {}

// recordChunk is what one worker found expanding one chunk: per state, its
// number of edges and P and Q; per edge, its target (a state's number, or
// −1−j for candidate j of the chunk) and its action; per candidate, the
// state it was admitted as (ids, filled by Admit).
type recordChunk struct {
	first   uint32 // the chunk's first state
	counts  []uint32
	preds   []uint64
	to      []int64
	act     []uint32
	ids     []uint32
	inits   []int32
	missing bool // an edge to a stored state not in the index
}

func (k *recordChunk) Reset() {
	k.counts, k.preds, k.to, k.act = k.counts[:0], k.preds[:0], k.to[:0], k.act[:0]
	k.ids, k.inits, k.missing = k.ids[:0], k.inits[:0], false
}

// recordWorker is one worker's hooks: it numbers the edges to stored
// states through the index, which only the committing goroutine writes,
// between rounds.
type recordWorker[S any] struct {
	r    *Recorder[S]
	k    *recordChunk
	succ *store.Candidates
}

func (r *Recorder[S]) Worker() extension.Worker[S] { return &recordWorker[S]{r: r} }

func (w *recordWorker[S]) StartChunk(_ extension.Level, _, _ int, _ *store.Candidates, ch extension.Chunk) {
	w.k = ch.(*recordChunk)
}

// Start evaluates P and Q on the state about to be expanded.
func (w *recordWorker[S]) Start(pid uint32, _ []byte, cur *S, _ int) {
	if w.r.g == nil {
		return
	}
	k := w.k
	if len(k.counts) == 0 {
		k.first = pid
	}
	at := len(k.preds)
	for range w.r.words {
		k.preds = append(k.preds, 0)
	}
	for i, p := range w.r.props {
		if p.From != nil && p.From(cur) {
			k.preds[at+2*i/64] |= 1 << (2 * i % 64)
		}
		if p.State != nil && p.State(cur) {
			k.preds[at+(2*i+1)/64] |= 1 << ((2*i + 1) % 64)
		}
	}
}

func (w *recordWorker[S]) Edges(succ *store.Candidates, _ []S) { w.succ = succ }

func (w *recordWorker[S]) LookUp(succ *store.Candidates, seen []bool) []bool {
	return w.r.st.SeenAll(succ, seen)
}

// Successors records the current state's edges: an edge to a stored state
// by its number, found in the index, one to a candidate by its position.
func (w *recordWorker[S]) Successors(at []int32, _ []uint32) {
	if w.r.g == nil {
		return
	}
	k, succ := w.k, w.succ
	for i, code := range at {
		var t int64
		switch {
		case code >= 0:
			t = -1 - int64(code)
		case code == extension.AtStored:
			id, ok := w.r.g.index.find(succ.Enc(i), succ.FPs[i])
			if !ok {
				k.missing = true
			}
			t = int64(id)
		case code == extension.AtSkipped:
			k.missing = true
		default:
			t = -1 - int64(extension.NewAt(code))
		}
		k.to = append(k.to, t)
		k.act = append(k.act, succ.Actions[i])
	}
	k.counts = append(k.counts, uint32(len(at)))
}

// Terminal needs nothing: a state without edges is terminal (take).
func (w *recordWorker[S]) Terminal() {}
