package termination

import (
	"fmt"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// MaxProps bounds the liveness properties decided by a measure: their
// marks are bits of a 32-bit word.
const MaxProps = 32

// Measure is a run's liveness-by-measure state: the extension of the
// search that verifies the measure and computes the marks.
type Measure[S any] struct {
	sys  *model.System[S]
	term *model.Termination[S]
	// props lists the liveness properties with a state goal, whose marks
	// are the bits of a word in this order (a goal of "a terminal state"
	// holds on every finite run and needs none).
	props []*model.Property[S]
	// rebuild rebuilds a stored state from the search's trace log.
	rebuild extension.Rebuild[S]
	// layout says where a candidate carries its marks.
	layout store.PayloadLayout
	// marks is set when the run opens its store (marks.go); marksBytes is
	// their memory when the search ended, read before the visited set is
	// closed, which frees the marks it keeps in its slots.
	marks      markSet
	marksBytes int64
	// raises are the current level's, in frontier order.
	raises []raise
	// onDisk is the disk store, which carries the marks of the level's
	// candidates, reports the stored states they raise (gains) and locates
	// states for settleOnDisk; nil with a store in memory.
	onDisk store.Locator
	gains  []gain
	// withMarks says that the search computes the marks (the marks
	// phase). pending has the bits of the properties that some terminal
	// state leaves pending: in the marks phase, those it is marked for
	// (they fail); before it, those whose goal it does not meet (the marks
	// phase must decide them).
	withMarks bool
	pending   uint32
	// wrong is the first transition found that does not decrease the
	// measure; the marks are then abandoned.
	wrong *Wrong
	// bounds, with the visited set in memory, hold the measure's checks
	// deferred to the states not yet expanded (bounds.go); nil with the
	// disk store, and under partial-order reduction, which checks every
	// transition at once.
	bounds *bounds
	// st is the visited set; payloads is it when it keeps the marks in
	// its slots (slots.go), and stored, under partial-order reduction,
	// reports whether the state with fingerprint fp is stored: a
	// re-expansion passes marks on only to those (propagate).
	st       store.Store
	payloads store.WithPayload
	stored   func(fp uint64) bool
}

// raise is an edge from parent by action to the state with fingerprint fp,
// which gives it the marks mask.
type raise struct {
	fp     uint64
	parent uint32
	action uint32
	mask   uint32
}

// Wrong is a transition that does not decrease the measure: from state
// Parent by Action to the successor with fingerprint FP, with the
// measure's values before and after.
type Wrong struct {
	Parent        uint32
	Action        model.Action
	FP            uint64
	Before, After []int
}

// New returns the measure's bookkeeping for sys, or nil when sys declares
// no measure, has no liveness property, or has more than MaxProps of
// them; liveness is then decided on the graph. With withMarks the search
// computes the marks (the marks phase); without, it only records the
// goals its terminal states leave unmet. rebuild rebuilds a stored state
// for a re-expansion.
func New[S any](sys *model.System[S], withMarks bool, rebuild extension.Rebuild[S]) *Measure[S] {
	if sys.Termination == nil {
		return nil
	}
	a := &Measure[S]{sys: sys, term: sys.Termination, withMarks: withMarks, rebuild: rebuild}
	live := false
	for i := range sys.Props {
		p := &sys.Props[i]
		live = live || p.Kind.Liveness()
		if p.Kind.Liveness() && !p.Terminal {
			a.props = append(a.props, p)
		}
	}
	if !live || len(a.props) > MaxProps {
		return nil
	}
	return a
}

// Active reports whether the measure still holds: no transition has broken
// it so far.
func (a *Measure[S]) Active() bool { return a != nil && a.wrong == nil }

// marking reports whether the search computes the marks: in the marks
// phase, while the measure holds.
func (a *Measure[S]) marking() bool { return a.Active() && a.withMarks }

// Marked says that the search computes the marks: it is the marks phase.
func (a *Measure[S]) Marked() bool { return a.withMarks }

// Pending are the bits, one per liveness property with a state goal in
// the order of the system's properties, that the search's terminal states
// leave pending: in the marks phase, the properties that fail; before it,
// those whose goal some terminal state does not meet.
func (a *Measure[S]) Pending() uint32 { return a.pending }

// WrongTransition is the first transition found that does not decrease
// the measure, nil if none did.
func (a *Measure[S]) WrongTransition() *Wrong { return a.wrong }

// MarksBytes is the memory the marks held when the search ended.
func (a *Measure[S]) MarksBytes() int64 { return a.marksBytes }

// PayloadBits is the marks' bits, kept per state in the marks phase (at
// least one, so that a candidate has a place for them).
func (a *Measure[S]) PayloadBits() int {
	if !a.withMarks {
		return 0
	}
	return max(len(a.props), 1)
}

// unmetAt are the bits of the properties whose goal the terminal state s
// does not meet.
func (a *Measure[S]) unmetAt(s *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if !p.State(s) {
			m |= 1 << j
		}
	}
	return m
}

// initialMarks are the marks of an initial state s.
func (a *Measure[S]) initialMarks(s *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if !p.State(s) && (p.Kind == model.Eventually || p.From(s)) {
			m |= 1 << j
		}
	}
	return m
}

// edgeMarks are the marks a state t inherits along an edge from a state
// with marks from, together with its own (P ∧ ¬Q of a leads-to).
func (a *Measure[S]) edgeMarks(from uint32, t *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if (from&(1<<j) != 0 || (p.Kind == model.LeadsTo && p.From(t))) && !p.State(t) {
			m |= 1 << j
		}
	}
	return m
}

// inherited are the marks t inherits along an edge from a state with marks
// from, without its own.
func (a *Measure[S]) inherited(from uint32, t *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if from&(1<<j) != 0 && !p.State(t) {
			m |= 1 << j
		}
	}
	return m
}

func (a *Measure[S]) keep(r raise) {
	have, pending := a.marks.get(r.fp)
	switch {
	case r.mask&^have == 0:
	case pending:
		a.marks.raise(r.fp, have|r.mask, true)
	default:
		a.raises = append(a.raises, r)
	}
}

// EndLevel applies the raises of the level depth just committed,
// re-expanding every state they raise that has already been expanded (see
// the package doc).
func (a *Measure[S]) EndLevel(depth int) error {
	defer func() { a.raises, a.gains = a.raises[:0], a.gains[:0] }()
	if !a.marking() {
		return nil
	}
	if a.onDisk != nil {
		return a.settleOnDisk(depth)
	}
	for _, r := range a.raises {
		have, pending := a.marks.get(r.fp)
		gain := r.mask &^ have
		if gain == 0 {
			continue
		}
		a.marks.raise(r.fp, have|gain, pending)
		if pending {
			continue // not yet expanded
		}
		s, err := a.rebuild(r.parent, depth, new(packed.Unpack(r.action)))
		if err != nil {
			return err
		}
		a.propagate(&s, gain)
	}
	return nil
}

// propagate passes the marks gain, just gained by the expanded state start,
// on through its successors (under reduction, its stored ones),
// depth-first, and records a marked terminal state as a failure.
func (a *Measure[S]) propagate(start *S, gain uint32) {
	type toExpand struct {
		enc  []byte
		gain uint32
	}
	sys := a.sys
	stack := []toExpand{{sys.Encode(nil, start), gain}}
	var cur, next S
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := sys.Decode(top.enc, &cur); err != nil {
			panic(fmt.Sprintf("internal error: a re-expanded state does not decode: %v", err))
		}
		enabled := a.passOn(&cur, top.gain, &next, func(enc []byte, m uint32) {
			fp := model.Fingerprint(enc)
			if a.stored != nil && !a.stored(fp) {
				return
			}
			have, pending := a.marks.get(fp)
			if m&^have == 0 {
				return
			}
			a.marks.raise(fp, have|m, pending)
			if !pending {
				stack = append(stack, toExpand{enc, m &^ have})
			}
		})
		if !enabled {
			a.pending |= top.gain
		}
	}
}

// passOn calls f on every successor of cur that inherits marks from gain,
// with its encoding and those marks, building each in next; it reports
// whether cur has a successor.
func (a *Measure[S]) passOn(cur *S, gain uint32, next *S, f func(enc []byte, m uint32)) bool {
	enabled := false
	for range a.sys.Steps(cur, next) {
		enabled = true
		if m := a.inherited(gain, next); m != 0 {
			f(a.sys.Encode(nil, next), m)
		}
	}
	return enabled
}

// StartLevel starts the marks' and the bounds' next level.
func (a *Measure[S]) StartLevel(depth int, first uint32) {
	if a.marks != nil {
		a.marks.startLevel(uint32(depth)+2, first)
	}
	if a.bounds != nil {
		a.bounds.startLevel(first)
	}
}

// Admit records the marks and the bound of the new state id, candidate i
// of c, from the chunk ch.
func (a *Measure[S]) Admit(id uint32, c *store.Candidates, i int, ch extension.Chunk) {
	if !a.Active() {
		return
	}
	if a.withMarks {
		a.marks.admit(id, c.FPs[i], uint32(c.Vals[i*a.layout.Vals+a.layout.At]))
	}
	if a.bounds != nil {
		r, k := a.bounds.row(), ch.(*chunk)
		k.ids[i] = id
		a.bounds.admit(id, k.bounds[i*r:(i+1)*r])
	}
}

// Initial gives the initial state s, the last candidate of c, its marks
// and no bound.
func (a *Measure[S]) Initial(s *S, c *store.Candidates, ch extension.Chunk) {
	if a.withMarks {
		c.Vals = append(c.Vals, int(a.initialMarks(s)))
	}
	if bd := a.bounds; bd != nil {
		k := ch.(*chunk)
		k.bounds = bd.appendNoBound(k.bounds)
		k.ids = append(k.ids, store.NotStored)
	}
}

// EndRun frees the bounds, every one checked or the search stopped, and
// notes the marks' memory before the visited set, which may hold them, is
// closed.
func (a *Measure[S]) EndRun() {
	if a.bounds != nil {
		a.bounds.free()
	}
	if a.marks != nil {
		a.marksBytes = a.marks.bytes()
	}
}

// FreeMarks releases the marks once they have decided, or once the graph
// decides instead.
func (a *Measure[S]) FreeMarks() {
	if a.marks != nil {
		a.marks.free()
	}
}

// A Measure is an extension of the search.
var _ extension.Extension[struct{}] = (*Measure[struct{}])(nil)
