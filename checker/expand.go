package checker

import (
	"context"
	"fmt"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// expander is one worker's scratch space: the state being expanded, its
// successors and the encoding buffer, all reused, so expanding a state
// allocates nothing.
type expander[S any] struct {
	e   *bfs[S]
	cur S
	buf []byte
	// succ holds the current state's successors, seen whether each is
	// already stored, and succs each one as a state: they are built there
	// and kept until the lookup, for the search extension to read (a
	// termination measure's deferred checks and marks).
	succ  store.Candidates
	seen  []bool
	succs []S
	// kernel enumerates the successors of the state being expanded.
	kernel model.Successors[S]
	// stepProps and endProps index the system's step and end properties.
	stepProps, endProps []int
	// readsBefore holds, per step property with declared Reads, what it
	// reads in the state being expanded (stepReads); readsAfter is the
	// scratch space for a successor's.
	readsBefore [][]byte
	readsAfter  []byte
	// With partial-order reduction: the ample set's scratch space, the
	// variables the properties read in the current state and in a
	// successor, and the index of each successor in the store (store.NotStored
	// if it is not there).
	ample             *por.Ample
	readCur, readNext []byte
	index             []uint32
	// pid and b are the state being expanded and the batch it feeds, err
	// the first error met computing a group of its successors.
	pid uint32
	b   *batch
	err error
	// ext is the search extension's worker (package extension), nil
	// without one; payload says that it keeps a payload per state, and at
	// is what each successor is, for its Successors.
	ext     extension.Worker[S]
	payload bool
	at      []int32
}

func newExpander[S any](e *bfs[S]) *expander[S] {
	x := &expander[S]{e: e, kernel: e.sys.Successors(packed.MaxChoices)}
	if e.ext != nil {
		x.ext, x.payload = e.ext.Worker(), e.payloadBits > 0
	}
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

// successorAt is where successor i of the current state is built.
func (x *expander[S]) successorAt(i int) *S {
	if i == len(x.succs) {
		x.succs = append(x.succs, *new(S))
	}
	return &x.succs[i]
}

// keep makes successor i a candidate of b, with its measures' values.
func (x *expander[S]) keep(i int, b *batch) {
	b.Add(x.succ.FPs[i], x.pid, x.succ.Actions[i], x.succ.Masks[i], x.succ.Enc(i))
	m := len(x.e.peaks)
	b.Vals = append(b.Vals, x.succ.Vals[i*m:(i+1)*m]...)
}

// keepNew makes every successor not stored a candidate of b, once per
// chunk: one noted in the chunk (store.Candidates.NoteInChunk) is one
// already.
func (x *expander[S]) keepNew(b *batch) {
	for i, seen := range x.seen {
		if !seen && !x.succ.InChunk(i) && b.FirstOf(x.succ.FPs[i]) {
			x.judge(i, b)
			x.keep(i, b)
		}
	}
}

// keepNewWith is keepNew with an extension, which is then given the
// state's edges at once (extension.Worker.Successors): what each
// successor is, stored, the edge that made a candidate, or a later edge to
// one.
func (x *expander[S]) keepNewWith(b *batch) {
	x.at = x.at[:0]
	for i, seen := range x.seen {
		if seen {
			x.at = append(x.at, extension.AtStored)
			continue
		}
		j, in := x.succ.ChunkAt(i)
		first := false
		if !in {
			j, first = b.FirstAt(x.succ.FPs[i])
		}
		if first {
			x.judge(i, b)
			x.keepWith(i, b)
			x.at = append(x.at, extension.AtNew(j))
		} else {
			x.at = append(x.at, int32(j))
		}
	}
	x.ext.Successors(x.at, nil)
}

// keepWith is keep with an extension: a payload, if it keeps one, follows
// the measures' values, 0 until the extension gives it.
func (x *expander[S]) keepWith(i int, b *batch) {
	x.keep(i, b)
	if x.payload {
		b.Vals = append(b.Vals, 0)
	}
}

// expand generates every successor of frontier states lo..hi-1 into b:
// transitions and terminal states are counted, step and end properties
// checked, and successors not already in the store become candidates. With
// partial-order reduction on, expandReduced does this for each state.
func (x *expander[S]) expand(ctx context.Context, fr *level, lo, hi int, b *batch) error {
	sys := x.e.sys
	defer func() { x.e.done.Add(int64(hi - lo)) }()
	if x.ext != nil {
		x.ext.StartChunk(fr, lo, hi, &b.Candidates, b.ext)
	}
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
		x.stepReads()
		if x.ample != nil {
			if err := x.expandReduced(pid, data, j-lo, b); err != nil {
				return err
			}
			continue
		}
		x.pid = pid
		x.succ.Reset()
		for x.kernel.Of(&x.cur); x.kernel.Next(x.successorAt(len(x.succ.FPs))); {
			a, next := x.kernel.Action(), &x.succs[len(x.succ.FPs)]
			n := len(x.succ.Data)
			x.succ.Data = sys.Encode(x.succ.Data, next)
			fp := model.Fingerprint(x.succ.Data[n:])
			x.succ.Add(fp, pid, packed.Action(a), 0, nil)
			if !x.succ.NoteInChunk(&b.Candidates) {
				x.e.store.Prefetch(fp)
			}
			if b.fired != nil {
				b.fired[a.Rule*sys.Procs+a.Proc]++
			}
		}
		if err := x.kernel.Err(); err != nil {
			return err
		}
		// The successors' home slots are on their way (Prefetch): what
		// needs no lookup is done before the first.
		if x.ext != nil {
			x.ext.Start(pid, data, &x.cur, j-lo)
		}
		for i, a := range x.succ.Actions {
			x.checkStep(packed.Unpack(a), pid, x.succ.FPs[i], &x.succs[i], b)
			x.measure(&x.succs[i], &x.succ)
		}
		enabled := len(x.succ.FPs)
		if x.ext != nil {
			x.ext.Edges(&x.succ, x.succs)
			x.seen = x.ext.LookUp(&x.succ, x.seen)
			x.keepNewWith(b)
		} else {
			x.seen = x.e.store.SeenAll(&x.succ, x.seen)
			x.keepNew(b)
		}
		b.transitions += int64(enabled)
		if enabled == 0 {
			b.terminal++
			if x.ext != nil {
				x.ext.Terminal()
			}
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
// their situations not yet met. A step that leaves every variable a
// property reads unchanged satisfies it and is not its situation, as its
// Reads promise (model.Property), so neither is evaluated there.
func (x *expander[S]) checkStep(a model.Action, pid uint32, fp uint64, next *S, b *batch) {
	for k, i := range x.stepProps {
		decided := x.e.hits[i] != nil
		if decided && !x.unseen(i, b) || x.unchanged(k, next) {
			continue
		}
		x.observeStep(i, a, next, b)
		if !decided && !x.e.sys.Props[i].Trans(&x.cur, a, next) {
			taken := a // only a failing transition's action goes to the heap
			b.hitFirst(i, hit{id: pid, extra: &taken, fp: fp})
		}
	}
}

// stepReads records what each step property with declared Reads reads in
// the state being expanded.
func (x *expander[S]) stepReads() {
	if len(x.readsBefore) < len(x.stepProps) {
		x.readsBefore = make([][]byte, len(x.stepProps))
	}
	for k, i := range x.stepProps {
		if p := &x.e.sys.Props[i]; p.Reads != nil {
			x.readsBefore[k] = p.Reads(x.readsBefore[k][:0], &x.cur)
		}
	}
}

// unchanged reports whether the step to next leaves every variable step
// property k reads unchanged.
func (x *expander[S]) unchanged(k int, next *S) bool {
	p := &x.e.sys.Props[x.stepProps[k]]
	if p.Reads == nil {
		return false
	}
	x.readsAfter = p.Reads(x.readsAfter[:0], next)
	return string(x.readsAfter) == string(x.readsBefore[k])
}

// judge evaluates the invariants and witnesses on successor i, about to
// become a candidate, and records the situations it is. Every stored state
// was once a candidate (or initial), so a successor already stored was
// judged then: the properties of a state are evaluated once, not once per
// edge into it.
func (x *expander[S]) judge(i int, b *batch) {
	x.succ.Masks[i] = x.stateMask(&x.succs[i])
	x.observe(&x.succs[i], b)
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
