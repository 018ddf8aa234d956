package termination

import (
	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
)

// WriteSection writes a checkpoint's section of the termination measure
// (doc.go): whether the run verifies one (a nil a does not); the
// transition that broke it, if one did; else the properties whose goal a
// terminal state leaves unmet. The search a checkpoint saves computes no
// marks: the marks phase, which does, writes no checkpoint.
func (a *Measure[S]) WriteSection(w *diskio.SectionWriter) {
	if a == nil {
		w.Uint(0)
		return
	}
	w.Uint(1)
	if a.wrong != nil {
		w.Uint(1)
		w.Uint(uint64(a.wrong.Parent))
		w.Uint(a.wrong.FP)
		w.Uint(uint64(packed.Action(a.wrong.Action)))
		for _, vs := range [][]int{a.wrong.Before, a.wrong.After} {
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

// SectionError is ReadSection's answer to a section that does not fit the
// run: Why says why in a few words, for the caller to name the checkpoint.
type SectionError struct{ Why string }

func (e *SectionError) Error() string { return e.Why }

// ReadSection reads what WriteSection wrote into a, which must verify a
// measure (be non-nil) exactly when the checkpointed run did; a section
// that does not fit is a SectionError.
func (a *Measure[S]) ReadSection(r *diskio.Section) error {
	if (r.Uint() == 1) != (a != nil) {
		return &SectionError{"the termination measure's section does not fit the spec"}
	}
	if a == nil {
		return nil
	}
	if r.Uint() == 1 {
		a.wrong = &Wrong{Parent: uint32(r.Uint()), FP: r.Uint()}
		a.wrong.Action = packed.Unpack(uint32(r.Uint()))
		for _, vs := range []*[]int{&a.wrong.Before, &a.wrong.After} {
			for n := r.Uint(); n > 0 && r.Err() == nil; n-- {
				*vs = append(*vs, int(r.Int()))
			}
		}
		return r.Err()
	}
	a.pending = uint32(r.Uint())
	if uint64(a.pending) >= 1<<len(a.props) {
		return &SectionError{"the termination measure's section names properties the spec does not have"}
	}
	return r.Err()
}
