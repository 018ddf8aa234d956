package checker

import (
	"bytes"
	"context"
	"fmt"

	"mc/model"
)

// expander is one worker's scratch space: the state being expanded, the
// successor being built and the encoding buffer, all reused, so expanding a
// state allocates nothing.
type expander[S any] struct {
	e         *explorer[S]
	cur, next S
	buf       []byte
	// succ holds the current state's successors, seen whether each is
	// already stored.
	succ batch
	seen []bool
	// stepProps and endProps index the system's step and end properties.
	stepProps, endProps []int
	// With partial-order reduction: the ample set's scratch space, whether
	// each successor is visible, and the variables the properties read in
	// the current state and in the successor.
	ample             *ample
	visible           []bool
	readCur, readNext []byte
	// index holds, with reduction on, the index of each stored successor
	// (notStored for the others).
	index []uint32
}

func newExpander[S any](e *explorer[S]) *expander[S] {
	x := &expander[S]{e: e}
	if e.reducer != nil {
		x.ample = newAmple(e.reducer.groups)
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

// expand generates every successor of frontier states lo..hi-1 into b:
// transitions and terminal states are counted, step and end properties
// checked, and successors not already in the store become candidates. With
// partial-order reduction, only the ample set's successors become
// candidates and count as transitions (step properties are still checked on
// every enabled action).
func (x *expander[S]) expand(ctx context.Context, fr *level, lo, hi int, b *batch) error {
	sys, store := x.e.sys, x.e.store
	defer func() { x.e.done.Add(int64(hi - lo)) }()
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
		if err := x.successors(pid, b); err != nil {
			return err
		}
		// All successors' fingerprints are known before the first lookup,
		// so the lookups' cache misses overlap.
		enabled := len(x.succ.fps)
		if x.ample == nil {
			x.seen = store.SeenAll(&x.succ, x.seen)
		} else {
			x.index = x.e.indexed.IndicesAll(&x.succ, x.index)
			x.seen = x.seen[:0]
			for _, id := range x.index {
				x.seen = append(x.seen, id != notStored)
			}
		}
		if x.ample != nil && enabled > 1 && x.reduce(pid) {
			for _, g := range x.ample.best {
				for i := x.ample.first[g]; i < x.ample.first[g+1]; i++ {
					x.keep(int(i), pid, b)
					b.transitions++
				}
			}
			if x.e.ampleHook != nil {
				x.e.ampleHook(pid, x.ampleActions())
			}
			continue
		}
		for i := range x.seen {
			x.keep(i, pid, b)
		}
		b.transitions += int64(enabled)
		if enabled == 0 {
			b.terminal++
			x.checkEnd(pid, data, b)
		}
	}
	return nil
}

// successors computes every successor of cur into x.succ, checking the
// step properties on each. With reduction on, it also records where each
// group's successors start, which groups had a send blocked, and which
// successors are visible.
func (x *expander[S]) successors(pid uint32, b *batch) error {
	sys, a := x.e.sys, x.ample
	x.succ.reset()
	if a != nil {
		clear(a.blocked)
		x.visible = x.visible[:0]
		x.readCur = x.reads(x.readCur[:0], &x.cur)
	}
	for ri := range sys.Rules {
		r := &sys.Rules[ri]
		for p := 0; p < sys.Procs; p++ {
			g := ri*sys.Procs + p
			if a != nil {
				a.first[g] = int32(len(x.succ.fps))
			}
			nc := r.ChoicesAt(&x.cur, p)
			if nc > maxChoices {
				return fmt.Errorf("internal error: rule %s has %d choices; mc supports at most %d", r.Name, nc, maxChoices)
			}
			for k := 0; k < nc; k++ {
				sys.Copy(&x.next, &x.cur)
				if !r.Do(&x.next, p, k) {
					if a != nil {
						a.blocked[g] = true
					}
					continue
				}
				act := model.Action{Rule: ri, Proc: p, Choice: k}
				n := len(x.succ.data)
				x.succ.data = sys.Encode(x.succ.data, &x.next)
				fp := model.Fingerprint(x.succ.data[n:])
				x.checkStep(act, pid, fp, b)
				x.succ.add(fp, pid, pack(act), x.stateMask(&x.next), nil)
				if a != nil {
					x.readNext = x.reads(x.readNext[:0], &x.next)
					x.visible = append(x.visible, !bytes.Equal(x.readCur, x.readNext))
				}
			}
		}
	}
	if a != nil {
		a.first[len(a.first)-1] = int32(len(x.succ.fps))
	}
	return nil
}

// reads appends the variables that the invariant, step and witness
// properties read in s.
func (x *expander[S]) reads(buf []byte, s *S) []byte {
	for _, i := range x.e.readers {
		buf = x.e.sys.Props[i].Reads(buf, s)
	}
	return buf
}

// reduce marks the groups with a visible successor and those with one
// that is new or was stored after the current state, whose index is pid,
// and chooses the ample set; false means the state must be expanded in
// full.
func (x *expander[S]) reduce(pid uint32) bool {
	a := x.ample
	for g := range a.visible {
		a.visible[g], a.later[g] = false, false
		for i := a.first[g]; i < a.first[g+1]; i++ {
			a.visible[g] = a.visible[g] || x.visible[i]
			a.later[g] = a.later[g] || x.index[i] == notStored || x.index[i] > pid
		}
	}
	return a.choose(x.e.reducer)
}

// ampleActions lists the actions of the chosen ample set.
func (x *expander[S]) ampleActions() []model.Action {
	var out []model.Action
	for _, g := range x.ample.best {
		for i := x.ample.first[g]; i < x.ample.first[g+1]; i++ {
			out = append(out, unpack(x.succ.actions[i]))
		}
	}
	return out
}

// keep makes successor i a candidate of b unless it is already stored or
// already a candidate of the chunk.
func (x *expander[S]) keep(i int, pid uint32, b *batch) {
	if !x.seen[i] && b.firstInChunk(x.succ.fps[i]) {
		b.add(x.succ.fps[i], pid, x.succ.actions[i], x.succ.masks[i], x.succ.enc(i))
	}
}

// checkStep evaluates the undecided step properties on cur → next.
func (x *expander[S]) checkStep(a model.Action, pid uint32, fp uint64, b *batch) {
	for _, i := range x.stepProps {
		if x.e.hits[i] == nil && !x.e.sys.Props[i].Trans(&x.cur, a, &x.next) {
			taken := a // only a failing transition's action goes to the heap
			b.hitFirst(i, hit{id: pid, extra: &taken, fp: fp})
		}
	}
}

// checkEnd evaluates the undecided end properties on the terminal state cur.
func (x *expander[S]) checkEnd(pid uint32, enc []byte, b *batch) {
	for _, i := range x.endProps {
		if x.e.hits[i] == nil && !x.e.sys.Props[i].State(&x.cur) {
			b.hitFirst(i, hit{id: pid, fp: model.Fingerprint(enc)})
		}
	}
}
