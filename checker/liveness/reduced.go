package liveness

import (
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
)

// The reduced graph: each state expanded by an ample set (package por),
// chosen by the same code as mc check --por's (por.Ample), with no
// variable visible, since the graph decides no property (Limits.Reduce).
// What it keeps is what package por's soundness proof keeps without C2:
// every reachable terminal state, and for every complete run of the full
// graph a complete run of the reduced one made of the same actions, each
// process's in the same order (the "Deadlocks" case of the proof); the
// cycles, too (its "Liveness" section: C0 and C1 carry an infinite run).
//
// The proviso (C3) asks whether a successor is stored after the state
// being expanded. The build expands a batch of states before it numbers
// their successors, on one goroutine, so the index answers for every
// state numbered before the batch; a successor it does not hold is
// numbered after the whole level, which is after the state (the same
// argument as package por's doc gives for the checker's levels).

// reduction is what every reduced expansion of one build shares: the
// reducer, and the lookup of a successor's number in the graph's index.
type reduction struct {
	r    *por.Reducer
	find func(enc []byte, fp uint64) (uint32, bool)
}

// reduced is one expander's scratch space for reduced expansions: the
// ample set's, and every computed successor of the current state, of
// which the chosen groups' are passed on.
type reduced[S any] struct {
	*reduction
	x     *expander[S]
	ample *por.Ample
	self  uint32
	all   successors
	err   error
}

func newReduced[S any](sys *model.System[S], red *reduction) *reduced[S] {
	r := &reduced[S]{reduction: red}
	empty := func(c int) bool { return sys.ChanLen(&r.x.cur, c) == 0 }
	r.ample = por.NewAmple(red.r, r.group, empty)
	return r
}

// expand appends to b the successors of the state encoded as data, number
// self, by its ample set, or all of them when no ample set qualifies; in
// both cases in the order the spec enumerates actions (group order).
func (r *reduced[S]) expand(x *expander[S], data []byte, self uint32, b *successors) error {
	r.x, r.self, r.err = x, self, nil
	if err := x.sys.Decode(data, &x.cur); err != nil {
		return err
	}
	r.all.enc, r.all.ends, r.all.fp, r.all.act = r.all.enc[:0], r.all.ends[:0], r.all.fp[:0], r.all.act[:0]
	r.ample.Next()
	var groups []int32
	if r.ample.Choose() {
		groups = r.ample.Chosen()
	} else {
		for g := range r.ample.Groups() {
			r.group(g)
		}
	}
	if r.err != nil {
		return r.err
	}
	n := 0
	pass := func(g int) {
		from, to := r.ample.Span(g)
		for i := int(from); i < int(to); i++ {
			start := 0
			if i > 0 {
				start = r.all.ends[i-1]
			}
			b.enc = append(b.enc, r.all.enc[start:r.all.ends[i]]...)
			b.ends = append(b.ends, len(b.enc))
			b.fp = append(b.fp, r.all.fp[i])
			b.act = append(b.act, r.all.act[i])
			n++
		}
	}
	if groups == nil {
		for g := range r.ample.Groups() {
			pass(g)
		}
	} else {
		for _, g := range groups {
			pass(int(g))
		}
	}
	b.count = append(b.count, n)
	return nil
}

// group computes the successors of group g (rule g / Procs at process
// g % Procs) in the current state, once, recording for the ample set where
// they lie, whether a send was blocked, whether the rule is Ready, and
// whether a successor is new or numbered after the current state.
func (r *reduced[S]) group(g int) {
	f := r.ample.Fill(g)
	if f == nil {
		return
	}
	x := r.x
	sys := x.sys
	ri, p := g/sys.Procs, g%sys.Procs
	rule := &sys.Rules[ri]
	f.From = int32(len(r.all.fp))
	defer func() { f.To = int32(len(r.all.fp)) }()
	f.Idle = rule.Ready != nil && !rule.Ready(&x.cur, p)
	succ := &x.succ
	for succ.OfGroup(&x.cur, ri, p); succ.Next(&x.next); {
		start := len(r.all.enc)
		r.all.enc = sys.Encode(r.all.enc, &x.next)
		r.all.ends = append(r.all.ends, len(r.all.enc))
		enc := r.all.enc[start:]
		fp := model.Fingerprint(enc)
		r.all.fp = append(r.all.fp, fp)
		r.all.act = append(r.all.act, packed.Action(succ.Action()))
		id, stored := r.find(enc, fp)
		f.Later = f.Later || !stored || id > r.self
	}
	f.Blocked = succ.Blocked()
	if err := succ.Err(); err != nil && r.err == nil {
		r.err = err
	}
}
