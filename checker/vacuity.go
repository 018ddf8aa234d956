package checker

import (
	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// Vacuity (model/vacuity.go): the search records, per property, whether
// its situation arose in a state or transition it reached. Each chunk's
// batch collects the bits its states and transitions set, and commit ORs
// them into the search's, between rounds, as it does the hits; a subject is
// evaluated only while its bit is clear in both, so a situation costs the
// search nothing once it has been seen. The states and transitions that a
// run has reached at a level boundary do not depend on the workers, the
// store or a checkpoint, so neither do the bits, which a checkpoint keeps
// (writeSeen).

// propBits is a set of properties, by index.
type propBits []uint64

func (b propBits) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b *propBits) set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b *propBits) or(c propBits) {
	for i, w := range c {
		if w != 0 {
			for len(*b) <= i {
				*b = append(*b, 0)
			}
			(*b)[i] |= w
		}
	}
}

// unseen reports whether property i's situation has been seen neither by
// the search nor by the chunk b.
func (x *expander[S]) unseen(i int, b *batch) bool {
	return !x.e.seen.has(i) && !b.seen.has(i)
}

// observe records, in b, the situations that the reached state s is: the
// subjects of the invariants and the premises of the leads-to properties
// that it satisfies.
func (x *expander[S]) observe(s *S, b *batch) {
	for _, i := range x.e.situatedStates {
		if x.unseen(i, b) && x.e.sys.Props[i].MetInState(s) {
			b.seen.set(i)
		}
	}
}

// observeStep records, in b, that step property i's situation is the
// transition cur → next by a.
func (x *expander[S]) observeStep(i int, a model.Action, next *S, b *batch) {
	if x.unseen(i, b) && x.e.sys.Props[i].MetOnStep(&x.cur, a, next) {
		b.seen.set(i)
	}
}

// observeEnd records, in b, that end property i's situation is the
// terminal state cur.
func (x *expander[S]) observeEnd(i int, b *batch) {
	if x.unseen(i, b) && x.e.sys.Props[i].MetAtEnd(&x.cur) {
		b.seen.set(i)
	}
}

// unmet gives each property whose situation can go unseen and was not seen
// what never happened (PropResult.Unmet); settleVacuity keeps it only on a
// pass.
func (e *bfs[S]) unmet(res *Result) {
	for i := range res.Props {
		p := &e.sys.Props[i]
		if p.Situation() != model.Always && !e.seen.has(i) {
			res.Props[i].Unmet = p.UnmetPhrase()
		}
	}
}

// settleVacuity marks the vacuous passes once every verdict is given,
// liveness's included: a pass whose situation never arose. With
// Options.FailVacuous such a pass is a failure, and so is the run.
func settleVacuity(res *Result, opt Options) {
	for i := range res.Props {
		p := &res.Props[i]
		p.Vacuous = p.Verdict == Pass && p.Unmet != ""
		if !p.Vacuous {
			p.Unmet = ""
			continue
		}
		if opt.FailVacuous {
			p.Verdict = Fail
			res.Verdict = Fail
		}
	}
}

// writeSeen writes the situations seen, one bit per property.
func (e *bfs[S]) writeSeen(w *diskio.SectionWriter) {
	w.Uint(uint64(len(e.sys.Props)))
	for i := range e.sys.Props {
		if e.seen.has(i) {
			w.Uint(1)
		} else {
			w.Uint(0)
		}
	}
}

// readSeen reads what writeSeen wrote.
func (e *bfs[S]) readSeen(r *diskio.Section, path string) error {
	if int(r.Uint()) != len(e.sys.Props) {
		return notValid(path, "property count differs")
	}
	for i := range e.sys.Props {
		switch r.Uint() {
		case 0:
		case 1:
			e.seen.set(i)
		default:
			return notValid(path, "a situation bit is neither 0 nor 1")
		}
	}
	return nil
}
