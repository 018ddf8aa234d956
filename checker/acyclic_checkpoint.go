package checker

import (
	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
)

// writeMarks writes a checkpoint's section of the termination measure
// (acyclic.go): whether the run verifies one; the transition that broke it,
// if one did; else the properties whose goal a terminal state leaves unmet.
// The search a checkpoint saves computes no marks: the marks phase, which
// does, writes no checkpoint.
func (e *bfs[S]) writeMarks(w *diskio.SectionWriter) {
	a := e.acyc
	if a == nil {
		w.Uint(0)
		return
	}
	w.Uint(1)
	if a.wrong != nil {
		w.Uint(1)
		w.Uint(uint64(a.wrong.at.id))
		w.Uint(a.wrong.at.fp)
		w.Uint(uint64(packed.Action(*a.wrong.at.extra)))
		for _, vs := range [][]int{a.wrong.before, a.wrong.after} {
			w.Uint(uint64(len(vs)))
			for _, v := range vs {
				w.Int(int64(v))
			}
		}
		return
	}
	w.Uint(0)
	w.Uint(uint64(a.pending))
}

// readMarks reads what writeMarks wrote into this run's bookkeeping, which
// must verify a measure exactly when the checkpointed run did.
func (e *bfs[S]) readMarks(r *diskio.Section, path string) error {
	a := e.acyc
	if (r.Uint() == 1) != (a != nil) {
		return notValid(path, "the termination measure's section does not fit the spec")
	}
	if a == nil {
		return nil
	}
	if r.Uint() == 1 {
		h := hit{id: uint32(r.Uint()), fp: r.Uint()}
		act := packed.Unpack(uint32(r.Uint()))
		h.extra = &act
		a.wrong = &wrongTransition{at: h}
		for _, vs := range []*[]int{&a.wrong.before, &a.wrong.after} {
			for n := r.Uint(); n > 0 && r.Err() == nil; n-- {
				*vs = append(*vs, int(r.Int()))
			}
		}
		return r.Err()
	}
	a.pending = uint32(r.Uint())
	if uint64(a.pending) >= 1<<len(a.props) {
		return notValid(path, "the termination measure's section names properties the spec does not have")
	}
	return r.Err()
}
