package checker

import (
	"bytes"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// expandReduced expands the current state, index pid and encoding data,
// state j of its chunk, under partial-order reduction: it chooses an
// ample set (por.Ample.Choose), computing the successors of only the
// groups that the choice looks at, and makes the ample set's new successors candidates of b. Step
// properties, and a termination measure, are checked on every successor
// computed, a superset of the ample set's (the extension's Edges: a
// termination measure checks them at once, since a successor left out is
// never expanded, where a deferred check would be made); the extension's
// Successors follows the ample set's edges only, the edges of the reduced
// graph (package por's doc, "Liveness"). With no qualifying
// ample set the state is expanded in full, as expand would.
func (x *expander[S]) expandReduced(pid uint32, data []byte, j int, b *batch) error {
	a := x.ample
	a.Next()
	x.succ.Reset()
	x.index, x.pid, x.b, x.err = x.index[:0], pid, b, nil
	x.readCur = x.reads(x.readCur[:0], &x.cur)
	if x.ext != nil {
		x.ext.Start(pid, data, &x.cur, j)
	}
	reduced := a.Choose()
	if x.err != nil {
		return x.err
	}
	if reduced {
		if x.ext != nil {
			x.ext.Edges(&x.succ, x.succs)
			x.at = x.at[:0]
			for range x.succ.FPs {
				x.at = append(x.at, extension.AtSkipped)
			}
		}
		for _, g := range a.Chosen() {
			from, to := a.Span(int(g))
			for i := from; i < to; i++ {
				x.keepAmple(int(i), b)
			}
			b.transitions += int64(to - from)
			if b.fired != nil {
				b.fired[g] += int64(to - from)
			}
		}
		if x.ext != nil {
			x.ext.Successors(x.at, x.index)
		}
		if x.e.ampleHook != nil {
			x.e.ampleHook(pid, x.ampleActions())
		}
		return nil
	}
	for g := range a.Groups() {
		x.group(g)
	}
	if x.err != nil {
		return x.err
	}
	if x.ext != nil {
		x.ext.Edges(&x.succ, x.succs)
		x.at = x.at[:0]
		for range x.succ.FPs {
			x.at = append(x.at, extension.AtSkipped)
		}
	}
	enabled := int64(0)
	for g := range a.Groups() {
		from, to := a.Span(g)
		for i := from; i < to; i++ {
			x.keepAmple(int(i), b)
		}
		enabled += int64(to - from)
		if b.fired != nil {
			b.fired[g] += int64(to - from)
		}
	}
	if x.ext != nil {
		x.ext.Successors(x.at, x.index)
	}
	b.transitions += enabled
	if enabled == 0 {
		b.terminal++
		if x.ext != nil {
			x.ext.Terminal()
		}
		x.checkEnd(pid, data, b)
	}
	return nil
}

// group computes, once per state, the successors of group g (rule
// g / Procs at process g % Procs) into x.succ, with each one's index in
// the store and, for a new one, the state properties it decides; it checks
// the step properties on each, and records for the ample set where they
// lie, whether a send was blocked, whether one is visible and whether one
// is new or was stored after the current state.
func (x *expander[S]) group(g int) {
	f := x.ample.Fill(g)
	if f == nil {
		return
	}
	sys := x.e.sys
	ri, p := g/sys.Procs, g%sys.Procs
	r := &sys.Rules[ri]
	f.From = int32(len(x.succ.FPs))
	f.Idle = r.Ready != nil && !r.Ready(&x.cur, p)
	defer func() { f.To = int32(len(x.succ.FPs)) }()
	x.kernel.OfGroup(&x.cur, ri, p)
	if err := x.kernel.Err(); err != nil {
		if x.err == nil {
			x.err = err
		}
		return
	}
	defer func() { f.Blocked = x.kernel.Blocked() }()
	for x.kernel.Next(x.successorAt(len(x.succ.FPs))) {
		next := &x.succs[len(x.succ.FPs)]
		act := x.kernel.Action()
		n := len(x.succ.Data)
		x.succ.Data = sys.Encode(x.succ.Data, next)
		enc := x.succ.Data[n:]
		fp := model.Fingerprint(enc)
		x.checkStep(act, x.pid, fp, next, x.b)
		x.observe(next, x.b)
		id := x.e.indexed.IndexOf(fp, enc)
		var mask uint64
		if id == store.NotStored {
			mask = x.stateMask(next)
		}
		x.succ.Add(fp, x.pid, packed.Action(act), mask, nil)
		x.measure(next, &x.succ)
		x.index = append(x.index, id)
		x.readNext = x.reads(x.readNext[:0], next)
		f.Visible = f.Visible || !bytes.Equal(x.readCur, x.readNext)
		f.Later = f.Later || id == store.NotStored || id > x.pid
	}
}

// keepAmple passes on successor i, the target of an edge of the reduced
// graph: one not stored becomes a candidate of b once per chunk; with an
// extension, x.at records what the successor is, as keepNewWith does.
func (x *expander[S]) keepAmple(i int, b *batch) {
	fp := x.succ.FPs[i]
	switch {
	case x.ext == nil:
		if x.index[i] == store.NotStored && b.FirstOf(fp) {
			x.keep(i, b)
		}
	case x.index[i] != store.NotStored:
		x.at[i] = extension.AtStored
	default:
		j, first := b.FirstAt(fp)
		if first {
			x.keepWith(i, b)
			x.at[i] = extension.AtNew(j)
		} else {
			x.at[i] = int32(j)
		}
	}
}

// ampleActions lists the actions of the chosen ample set.
func (x *expander[S]) ampleActions() []model.Action {
	var out []model.Action
	for _, g := range x.ample.Chosen() {
		from, to := x.ample.Span(int(g))
		for i := from; i < to; i++ {
			out = append(out, packed.Unpack(x.succ.Actions[i]))
		}
	}
	return out
}
