package checker

import (
	"context"
	"fmt"

	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// expander is one worker's scratch space: the state being expanded, the
// successor being built and the encoding buffer, all reused, so expanding a
// state allocates nothing.
type expander[S any] struct {
	e         *bfs[S]
	cur, next S
	buf       []byte
	// succ holds the current state's successors, seen whether each is
	// already stored.
	succ store.Candidates
	seen []bool
	// stepProps and endProps index the system's step and end properties.
	stepProps, endProps []int
	// With partial-order reduction: the ample set's scratch space, the
	// variables the properties read in the current state and in a
	// successor, and the index of each successor in the store (store.NotStored
	// if it is not there).
	ample             *por.Ample
	readCur, readNext []byte
	index             []uint32
	// have are, with the marks in the visited set's slots, the marks of
	// each successor as the lookup found them (0 if not stored).
	have []uint32
	// pid and b are the state being expanded and the batch it feeds, err
	// the first error met computing a group of its successors.
	pid uint32
	b   *batch
	err error
	// marks are the current state's marks, read with those of its chunk
	// into chunkMarks (loadMarks), and before its termination measure,
	// after a successor's (acyclic.go).
	marks         uint32
	chunkMarks    []uint32
	chunkBuf      levelMarks
	before, after []int
	// bounded says that the checks of the measure on the current state's
	// edges are deferred (acyclic_bounds.go): every edge leaves the same
	// bound, the state's measure, with its own action, built when the
	// edge's target becomes a candidate (appendBoundOf, lowerBound).
	bounded bool
	// succs keeps, with deferred checks, the current state's successors
	// as states, in succ's order: the check of an edge to a state already
	// stored (checkStored) reads its measure off the state it was built
	// as, instead of decoding its encoding again.
	succs []S
}

func newExpander[S any](e *bfs[S]) *expander[S] {
	x := &expander[S]{e: e}
	if e.reducer != nil {
		x.ample = por.NewAmple(e.reducer, x.group, func(c int) bool { return e.sys.ChanLen(&x.cur, c) == 0 })
	}
	for i, p := range e.sys.Props {
		switch p.Kind {
		case model.Step:
			x.stepProps = append(x.stepProps, i)
		case model.End:
			x.endProps = append(x.endProps, i)
		}
	}
	return x
}

// stateMask evaluates on s the invariants and witnesses not yet decided and
// returns the bits of those s decides: an invariant it violates, a witness
// it satisfies. Hits are only written between levels, so reading them here
// is safe.
func (x *expander[S]) stateMask(s *S) uint64 {
	var m uint64
	for bit, pi := range x.e.stateProps {
		if x.e.hits[pi] != nil {
			continue
		}
		p := &x.e.sys.Props[pi]
		if p.State(s) != (p.Kind == model.Invariant) {
			m |= 1 << bit
		}
	}
	return m
}

// measure appends the measures' values on s to c.
func (x *expander[S]) measure(s *S, c *store.Candidates) {
	for i := range x.e.sys.Measures {
		c.Vals = append(c.Vals, x.e.sys.Measures[i].Value(s))
	}
}

// loadMarks reads the marks of frontier states lo..hi-1, the chunk about
// to be expanded, into chunkMarks.
func (x *expander[S]) loadMarks(fr *level, lo, hi int) {
	if a := x.e.acyc; a.marking() {
		x.chunkMarks = a.marks.ofLevel(fr, lo, hi, &x.chunkBuf)
	}
}

// startMarks reads the termination measure and the marks (loadMarks) of
// the state cur, state pid with encoding enc, state j of its chunk, about
// to be expanded, and checks the measure's bound on
// it (acyclic_bounds.go).
func (x *expander[S]) startMarks(pid uint32, enc []byte, j int, b *batch) {
	a := x.e.acyc
	x.marks, x.bounded = 0, false
	if !a.active() {
		return
	}
	x.before = a.term.Value(x.before[:0], &x.cur)
	if a.withMarks {
		x.marks = x.chunkMarks[j]
	}
	x.bounded = a.bounds != nil && fitsBound(x.before)
	if a.bounds == nil {
		return
	}
	if row := a.bounds.of(pid); row != nil && !decreasesFrom(row[:a.bounds.width], x.before) {
		w := a.bounds.width
		b.wrongAt(hit{id: row[w], extra: new(packed.Unpack(row[w+1])), fp: model.Fingerprint(enc)}, boundValues(row[:w]), x.before)
	}
}

// markSuccessor checks that the measure decreases on cur → next (by a,
// reaching fp), unless the check is deferred (acyclic_bounds.go), and
// appends the marks next inherits to c's values (with deferred checks, the
// bound the edge leaves is built only if next becomes a candidate:
// appendBoundOf). When the successors are kept as states
// (keepsSuccessors) the marks are left 0 here and computed once the
// lookup has said which successors are stored (raiseSuccessor, keepMerged).
func (x *expander[S]) markSuccessor(a model.Action, pid uint32, fp uint64, next *S, c *store.Candidates, b *batch) {
	if x.bounded { // deferred, and the successors kept as states
		if x.e.acyc.withMarks {
			c.Vals = append(c.Vals, 0)
		}
		return
	}
	x.markAtOnce(a, pid, fp, next, c, b)
}

// markAtOnce is markSuccessor when the measure is checked at once.
func (x *expander[S]) markAtOnce(a model.Action, pid uint32, fp uint64, next *S, c *store.Candidates, b *batch) {
	ac := x.e.acyc
	if ac == nil {
		return
	}
	var m uint32
	if ac.active() {
		if !x.bounded {
			x.after = ac.term.Value(x.after[:0], next)
			if !model.Decreases(x.before, x.after) {
				b.wrongAt(hit{id: pid, extra: new(a), fp: fp}, x.before, x.after)
			}
		}
		if ac.withMarks && !x.keepsSuccessors() {
			m = ac.edgeMarks(x.marks, next)
		}
	}
	if ac.withMarks {
		c.Vals = append(c.Vals, int(m))
	}
}

// appendBoundOf appends to rows the bound that the edge to successor i
// leaves: none if the state's edges were checked at once.
func (x *expander[S]) appendBoundOf(rows []uint32, i int) []uint32 {
	if !x.bounded {
		return x.e.acyc.bounds.appendNoBound(rows)
	}
	return appendBound(rows, x.before, x.pid, x.succ.Actions[i])
}

// checkStored checks the measure on the edges from cur, state pid, to the
// successors already stored, kept as states (successorAt): the edges to
// the others left their bound with the candidates (acyclic_bounds.go).
func (x *expander[S]) checkStored(pid uint32, b *batch) {
	ac := x.e.acyc
	if !ac.active() || !x.bounded { // else checked at once
		return
	}
	for i, seen := range x.seen {
		if !seen {
			continue
		}
		x.after = ac.term.Value(x.after[:0], &x.succs[i])
		if !model.Decreases(x.before, x.after) {
			b.wrongAt(hit{id: pid, extra: new(packed.Unpack(x.succ.Actions[i])), fp: x.succ.FPs[i]}, x.before, x.after)
		}
	}
}

// pendingHere are the bits that the current state, a terminal one, gives
// its batch (batch.pending): in the marks phase its marks, the properties it
// leaves pending; before, the properties whose goal it does not meet.
func (x *expander[S]) pendingHere() uint32 {
	switch a := x.e.acyc; {
	case !a.active():
		return 0
	case a.withMarks:
		return x.marks
	default:
		return a.unmetAt(&x.cur)
	}
}

// keepsSuccessors reports whether the current state's successors are kept
// as states: with the measure's checks deferred.
func (x *expander[S]) keepsSuccessors() bool {
	ac := x.e.acyc
	return ac.active() && ac.bounds != nil
}

// successorAt is where successor i of the current state is built: with
// deferred checks, among the states kept for checkStored, so that none is
// copied; otherwise in next.
func (x *expander[S]) successorAt(i int) *S {
	if !x.keepsSuccessors() {
		return &x.next
	}
	if i == len(x.succs) {
		x.succs = append(x.succs, *new(S))
	}
	return &x.succs[i]
}

// lookUp reports which successors of the current state are stored: with
// the marks in the visited set's slots, it finds their marks (x.have) at
// the same time.
func (x *expander[S]) lookUp() {
	if x.e.acyc.active() && x.e.marked != nil {
		x.seen, x.have = x.e.marked.PayloadAll(x.succ.FPs, x.seen, x.have)
		return
	}
	x.seen = x.e.store.SeenAll(&x.succ, x.seen)
}

// raiseSuccessors keeps a raise for every edge from the current state, pid,
// to a stored state that it gives marks the state does not have yet. The
// edges to states not stored before this round pass their marks on as
// candidates (keepMerged, then commit).
func (x *expander[S]) raiseSuccessors(pid uint32, b *batch) {
	if !x.e.acyc.marking() {
		return
	}
	for i, seen := range x.seen {
		if seen {
			x.raiseSuccessor(i, pid, b)
		}
	}
}

// raiseSuccessor keeps a raise for the edge from the current state, pid, to
// its successor i, a stored state, if it gives it marks it does not have
// yet. With the successors kept as states, their marks are computed here,
// and only when the current state has marks the successor lacks: a stored
// state already has its own (the P ∧ ¬Q of a leads-to, given when it was
// admitted), and an edge passes on no mark its source does not have, so
// otherwise the edge gives it nothing, and its properties' goals need not
// be evaluated.
func (x *expander[S]) raiseSuccessor(i int, pid uint32, b *batch) {
	ac := x.e.acyc
	at, vals := x.e.marksAt(), x.e.vals()
	m := uint32(x.succ.Vals[i*vals+at])
	late := x.keepsSuccessors()
	if (late && x.marks == 0) || (!late && m == 0) {
		return
	}
	fp := x.succ.FPs[i]
	var have uint32
	switch {
	case len(x.have) > 0: // found by the lookup
		have = x.have[i]
	case len(x.index) > 0:
		have = ac.marks.has(x.index[i], fp)
	default:
		have = ac.marks.has(store.NotStored, fp)
	}
	if late {
		if x.marks&^have == 0 {
			return
		}
		m = ac.edgeMarks(x.marks, &x.succs[i])
	}
	if m&^have != 0 {
		b.raises = append(b.raises, raise{fp: fp, parent: pid, action: x.succ.Actions[i], mask: m})
	}
}

// keep makes successor i a candidate of b.
func (x *expander[S]) keep(i int, b *batch) {
	b.Add(x.succ.FPs[i], x.pid, x.succ.Actions[i], x.succ.Masks[i], x.succ.Enc(i))
	m := x.e.vals()
	b.Vals = append(b.Vals, x.succ.Vals[i*m:(i+1)*m]...)
	if a := x.e.acyc; a != nil && a.bounds != nil {
		b.bounds = x.appendBoundOf(b.bounds, i)
	}
}

// keepMerged makes every successor not stored a candidate of b, once per
// chunk, merging what every edge of the chunk to it carries: in the marks
// phase its marks, their union, and, with deferred checks, its bound,
// their minimum; the chunk's own duplicates then need no raise. With the successors kept as states, their marks are
// computed here: in full on the chunk's first edge to a state (what it
// inherits from the current state, and its own), and on a later edge only
// if the current state has marks the candidate lacks, and then only those
// (its own were given by the first edge), so that the goals are not
// evaluated again on a state the chunk reaches by several edges.
func (x *expander[S]) keepMerged(b *batch) {
	ac, m, at := x.e.acyc, x.e.vals(), x.e.marksAt()
	late, marking := x.keepsSuccessors(), ac.withMarks
	for i, seen := range x.seen {
		if seen {
			continue
		}
		j, first := b.FirstAt(x.succ.FPs[i])
		if first {
			if late && marking {
				x.succ.Vals[i*m+at] = int(ac.edgeMarks(x.marks, &x.succs[i]))
			}
			x.keep(i, b)
			continue
		}
		if marking {
			switch have := uint32(b.Vals[j*m+at]); {
			case !late:
				b.Vals[j*m+at] |= x.succ.Vals[i*m+at]
			case x.marks&^have != 0:
				b.Vals[j*m+at] = int(have | ac.inherited(x.marks&^have, &x.succs[i]))
			}
		}
		if x.bounded {
			r := ac.bounds.row()
			lowerBound(b.bounds[j*r:(j+1)*r], x.before, x.pid, x.succ.Actions[i])
		}
	}
}

// expand generates every successor of frontier states lo..hi-1 into b:
// transitions and terminal states are counted, step and end properties
// checked, and successors not already in the store become candidates. With
// partial-order reduction on, expandReduced does this for each state.
func (x *expander[S]) expand(ctx context.Context, fr *level, lo, hi int, b *batch) error {
	sys := x.e.sys
	defer func() { x.e.done.Add(int64(hi - lo)) }()
	x.loadMarks(fr, lo, hi)
	for j := lo; j < hi; j++ {
		if (j-lo)&255 == 0 {
			if why := interrupted(ctx, x.e.opt, x.e.start); why != "" {
				x.e.halt(why)
				return nil
			}
		}
		data, pid := fr.state(j), fr.id(j)
		if err := sys.Decode(data, &x.cur); err != nil {
			return fmt.Errorf("internal error: state %d does not decode: %v", pid, err)
		}
		if x.ample != nil {
			if err := x.expandReduced(pid, data, j-lo, b); err != nil {
				return err
			}
			continue
		}
		x.startMarks(pid, data, j-lo, b)
		x.pid = pid
		x.succ.Reset()
		for ri := range sys.Rules {
			r := &sys.Rules[ri]
			for p := 0; p < sys.Procs; p++ {
				before := len(x.succ.FPs)
				nc := r.ChoicesAt(&x.cur, p)
				if nc > packed.MaxChoices {
					return fmt.Errorf("internal error: rule %s has %d choices; mc supports at most %d", r.Name, nc, packed.MaxChoices)
				}
				for k := 0; k < nc; k++ {
					next := x.successorAt(len(x.succ.FPs))
					sys.Copy(next, &x.cur)
					if !r.Do(next, p, k) {
						continue
					}
					a := model.Action{Rule: ri, Proc: p, Choice: k}
					n := len(x.succ.Data)
					x.succ.Data = sys.Encode(x.succ.Data, next)
					fp := model.Fingerprint(x.succ.Data[n:])
					x.checkStep(a, pid, fp, next, b)
					x.observe(next, b)
					x.succ.Add(fp, pid, packed.Action(a), x.stateMask(next), nil)
					x.measure(next, &x.succ)
					x.markSuccessor(a, pid, fp, next, &x.succ, b)
				}
				if b.fired != nil {
					b.fired[ri*sys.Procs+p] += int64(len(x.succ.FPs) - before)
				}
			}
		}
		// All successors' fingerprints are known before the first lookup,
		// so the lookups' cache misses overlap.
		enabled := len(x.succ.FPs)
		x.lookUp()
		x.checkStored(pid, b)
		x.raiseSuccessors(pid, b)
		if x.e.acyc.marking() || x.keepsSuccessors() {
			x.keepMerged(b)
		} else {
			for i, seen := range x.seen {
				if !seen && b.FirstOf(x.succ.FPs[i]) {
					x.keep(i, b)
				}
			}
		}
		b.transitions += int64(enabled)
		if enabled == 0 {
			b.terminal++
			b.pending |= x.pendingHere()
			x.checkEnd(pid, data, b)
		}
	}
	return nil
}

// reads appends the variables that the invariant, step and witness
// properties and the measures read in s.
func (x *expander[S]) reads(buf []byte, s *S) []byte {
	for _, f := range x.e.readers {
		buf = f(buf, s)
	}
	return buf
}

// checkStep evaluates the undecided step properties on cur → next, and
// their situations not yet met.
func (x *expander[S]) checkStep(a model.Action, pid uint32, fp uint64, next *S, b *batch) {
	for _, i := range x.stepProps {
		x.observeStep(i, a, next, b)
		if x.e.hits[i] == nil && !x.e.sys.Props[i].Trans(&x.cur, a, next) {
			taken := a // only a failing transition's action goes to the heap
			b.hitFirst(i, hit{id: pid, extra: &taken, fp: fp})
		}
	}
}

// checkEnd evaluates the undecided end properties on the terminal state
// cur, and their situations not yet met.
func (x *expander[S]) checkEnd(pid uint32, enc []byte, b *batch) {
	for _, i := range x.endProps {
		x.observeEnd(i, b)
		if x.e.hits[i] == nil && !x.e.sys.Props[i].State(&x.cur) {
			b.hitFirst(i, hit{id: pid, fp: model.Fingerprint(enc)})
		}
	}
}
