package termination

import (
	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// worker is one search worker's part of the measure: the state being
// expanded, its measure and marks, and what its edges give its successors.
type worker[S any] struct {
	a *Measure[S]
	// c and k are the chunk's candidates and the measure's part of it.
	c *store.Candidates
	k *chunk
	// chunkMarks are the marks of the chunk's states, read at once
	// (StartChunk), so that the lookups they may need overlap their cache
	// misses.
	chunkMarks []uint32
	chunkBuf   levelMarks
	// cur is the state being expanded, pid its index, marks its marks and
	// before its measure; after is a successor's.
	cur           *S
	pid           uint32
	marks         uint32
	before, after []int
	// bounded says that the checks of the measure on the current state's
	// edges are deferred (bounds.go): every edge leaves the same bound,
	// the state's measure, with its own action, built when the edge's
	// target becomes a candidate (keep, merge).
	bounded bool
	// succ and succs are the current state's successors, as candidates
	// and as states; payload[i] is what the edge to successor i gives it
	// at once, 0 when its marks are computed once the lookup has said
	// which successors are stored (late); have are, with the marks in the
	// visited set's slots, the marks of each successor as the lookup
	// found them.
	succ    *store.Candidates
	succs   []S
	payload []uint32
	have    []uint32
}

// Worker returns a worker's hooks.
func (a *Measure[S]) Worker() extension.Worker[S] { return &worker[S]{a: a} }

// late reports whether the marks of an edge's target are computed once
// the lookup has said whether it is stored: with the measure's checks
// deferred, when the successors are at hand as states anyway.
func (w *worker[S]) late() bool { return w.a.Active() && w.a.bounds != nil }

// StartChunk reads the marks of frontier states lo..hi-1, the chunk about
// to be expanded.
func (w *worker[S]) StartChunk(fr extension.Level, lo, hi int, c *store.Candidates, ch extension.Chunk) {
	w.c, w.k = c, ch.(*chunk)
	if w.a.marking() {
		w.chunkMarks = w.a.marks.ofLevel(fr, lo, hi, &w.chunkBuf)
	}
}

// Start reads the termination measure and the marks of the state cur,
// state pid with encoding enc, state j of its chunk, about to be expanded,
// and checks the measure's bound on it (bounds.go).
func (w *worker[S]) Start(pid uint32, enc []byte, cur *S, j int) {
	a := w.a
	w.cur, w.pid, w.marks, w.bounded = cur, pid, 0, false
	if !a.Active() {
		return
	}
	w.before = a.term.Value(w.before[:0], cur)
	if a.withMarks {
		w.marks = w.chunkMarks[j]
	}
	w.bounded = a.bounds != nil && fitsBound(w.before)
	if a.bounds == nil {
		return
	}
	if row := a.bounds.of(pid); row != nil && !decreasesFrom(row[:a.bounds.width], w.before) {
		width := a.bounds.width
		w.k.wrongAt(Wrong{Parent: row[width], Action: packed.Unpack(row[width+1]), FP: model.Fingerprint(enc),
			Before: boundValues(row[:width]), After: w.before})
	}
}

// Edges checks that the measure decreases on the edges to the successors,
// unless the checks are deferred (bounds.go), and, in the marks phase,
// computes what each edge gives its target, unless that is done late, once
// the lookup has said which successors are stored (Successors).
func (w *worker[S]) Edges(succ *store.Candidates, succs []S) {
	a := w.a
	w.succ, w.succs, w.payload = succ, succs, w.payload[:0]
	atOnce := a.Active() && !w.bounded
	if !atOnce && !a.withMarks { // nothing to do before the lookup
		return
	}
	for i := range succ.FPs {
		var m uint32
		if atOnce {
			next := &succs[i]
			w.after = a.term.Value(w.after[:0], next)
			if !model.Decreases(w.before, w.after) {
				w.k.wrongAt(Wrong{Parent: w.pid, Action: packed.Unpack(succ.Actions[i]), FP: succ.FPs[i], Before: w.before, After: w.after})
			}
			if a.withMarks && a.bounds == nil {
				m = a.edgeMarks(w.marks, next)
			}
		}
		w.payload = append(w.payload, m)
	}
}

// LookUp reports which successors are stored: with the marks in the
// visited set's slots, it finds their marks at the same time.
func (w *worker[S]) LookUp(succ *store.Candidates, seen []bool) []bool {
	if w.a.Active() && w.a.payloads != nil {
		seen, w.have = w.a.payloads.PayloadAll(succ.FPs, seen, w.have)
		return seen
	}
	w.have = w.have[:0]
	return w.a.st.SeenAll(succ, seen)
}

// Successors passes on the current state's edges, as at says
// (extension.Worker): an edge to a stored state is checked if its check
// was deferred and may raise its target's marks (stored); the edge that
// made a candidate gives it its marks and bound (keep), a later edge to
// the same candidate merges its own into them (merge).
func (w *worker[S]) Successors(at []int32, index []uint32) {
	if w.bounded && !w.a.withMarks {
		w.bound(at)
		return
	}
	for i, code := range at {
		switch {
		case code >= 0:
			w.merge(i, int(code))
		case code == extension.AtStored:
			id := store.NotStored
			if index != nil {
				id = index[i]
			}
			w.stored(i, id)
		case code != extension.AtSkipped:
			w.keep(i, extension.NewAt(code))
		}
	}
}

// bound is Successors in the first search with deferred checks, a
// default run's case: stored, keep and merge with nothing but the checks
// and the bounds, in one loop.
func (w *worker[S]) bound(at []int32) {
	a, k := w.a, w.k
	r := a.bounds.row()
	for i, code := range at {
		switch {
		case code >= 0:
			j := int(code)
			lowerBound(k.bounds[j*r:(j+1)*r], w.before, w.pid, w.succ.Actions[i])
		case code == extension.AtStored:
			w.after = a.term.Value(w.after[:0], &w.succs[i])
			if !model.Decreases(w.before, w.after) {
				k.wrongAt(Wrong{Parent: w.pid, Action: packed.Unpack(w.succ.Actions[i]), FP: w.succ.FPs[i], Before: w.before, After: w.after})
			}
		case code != extension.AtSkipped:
			k.bounds = appendBound(k.bounds, w.before, w.pid, w.succ.Actions[i])
			k.ids = append(k.ids, store.NotStored)
		}
	}
}

// stored checks the measure on the edge to successor i, a stored state
// (index its index if known), if its check was deferred (an edge to a
// state not stored leaves its bound with the candidate instead), and
// keeps a raise if the edge gives the state marks it does not have yet.
func (w *worker[S]) stored(i int, index uint32) {
	a := w.a
	if !a.Active() {
		return
	}
	if w.bounded {
		w.after = a.term.Value(w.after[:0], &w.succs[i])
		if !model.Decreases(w.before, w.after) {
			w.k.wrongAt(Wrong{Parent: w.pid, Action: packed.Unpack(w.succ.Actions[i]), FP: w.succ.FPs[i], Before: w.before, After: w.after})
		}
	}
	if a.withMarks {
		w.raise(i, index)
	}
}

// raise keeps a raise for the edge to successor i, a stored state, if it
// gives it marks it does not have yet. Computed late, the edge's marks
// are computed here, and only when the current state has marks the
// successor lacks: a stored state already has its own (the P ∧ ¬Q of a
// leads-to, given when it was admitted), and an edge passes on no mark its
// source does not have, so otherwise the edge gives it nothing, and its
// properties' goals need not be evaluated.
func (w *worker[S]) raise(i int, index uint32) {
	a := w.a
	m, late := w.payload[i], w.late()
	if (late && w.marks == 0) || (!late && m == 0) {
		return
	}
	fp := w.succ.FPs[i]
	var have uint32
	if len(w.have) > 0 { // found by the lookup
		have = w.have[i]
	} else {
		have = a.marks.has(index, fp)
	}
	if late {
		if w.marks&^have == 0 {
			return
		}
		m = a.edgeMarks(w.marks, &w.succs[i])
	}
	if m&^have != 0 {
		w.k.raises = append(w.k.raises, raise{fp: fp, parent: w.pid, action: w.succ.Actions[i], mask: m})
	}
}

// keep gives candidate j, just made from successor i, its marks and its
// bound. Computed late, its marks are computed here in full: what it
// inherits from the current state, and its own. The marks are or-ed into
// the candidate's: under partial-order reduction a later edge of the ample
// set, by the order of the successors, may have merged its own first.
func (w *worker[S]) keep(i, j int) {
	a := w.a
	if a.withMarks {
		m := w.payload[i]
		if w.late() {
			m = a.edgeMarks(w.marks, &w.succs[i])
		}
		w.c.Vals[j*a.layout.Vals+a.layout.At] |= int(m)
	}
	if bd := a.bounds; bd != nil {
		if w.bounded {
			w.k.bounds = appendBound(w.k.bounds, w.before, w.pid, w.succ.Actions[i])
		} else {
			w.k.bounds = bd.appendNoBound(w.k.bounds)
		}
		w.k.ids = append(w.k.ids, store.NotStored)
	}
}

// merge merges what the edge to successor i carries into the chunk's
// candidate at, the same state: its marks, their union, and, with
// deferred checks, its bound, their minimum; the chunk's own duplicates
// then need no raise. Computed late, its marks are computed only if the
// current state has marks the candidate lacks, and then only those (its
// own were given by the chunk's first edge to it), so that the goals are
// not evaluated again on a state the chunk reaches by several edges.
func (w *worker[S]) merge(i, at int) {
	a := w.a
	if a.withMarks {
		v := &w.c.Vals[at*a.layout.Vals+a.layout.At]
		switch have := uint32(*v); {
		case !w.late():
			*v |= int(w.payload[i])
		case w.marks&^have != 0:
			*v = int(have | a.inherited(w.marks&^have, &w.succs[i]))
		}
	}
	if w.bounded {
		r := a.bounds.row()
		lowerBound(w.k.bounds[at*r:(at+1)*r], w.before, w.pid, w.succ.Actions[i])
	}
}

// Terminal gives the chunk the bits of the current state, a terminal one:
// in the marks phase its marks, the properties it leaves pending; before,
// the properties whose goal it does not meet.
func (w *worker[S]) Terminal() {
	switch a := w.a; {
	case !a.Active():
	case a.withMarks:
		w.k.pending |= w.marks
	default:
		w.k.pending |= w.a.unmetAt(w.cur)
	}
}
