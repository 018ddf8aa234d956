package checker

import (
	"fmt"

	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// Liveness from a termination measure. A spec may declare a measure
// (model.Termination) that every transition strictly decreases. The
// breadth-first search checks it on every transition it generates (at once,
// or at the target's expansion: acyclic_bounds.go); if it
// holds on all of them the state graph has no cycle, so every run is finite
// and ends in a terminal state. Fairness then constrains nothing: a finite
// maximal run is fair under every fairness assumption, since nothing is
// enabled at its end, and there is no infinite run to exclude. So
//
//   - "eventually Q" fails exactly when some terminal state is reachable
//     from an initial state along a path of ¬Q states, and
//   - "P leads to Q" fails exactly when some terminal state is reachable
//     along a path of ¬Q states from a state satisfying P ∧ ¬Q,
//
// (a goal of "a terminal state" always holds). Both hold when every
// reachable terminal state meets Q, since every maximal run ends in one;
// so the search records, at each terminal state, the goals it leaves
// unmet, and nothing more. If it leaves none, every property holds: the
// common case, an election whose terminal states all have their leader,
// costs the measure's checks and no more. Otherwise a second search, the
// marks phase (marksPhase, acyclic_verdict.go), explores the same states
// again and decides each property by one mark bit on the states it
// stores, with no graph: mark(t) = ¬Q(t) ∧ (t is initial, for eventually;
// P(t), for leads-to; or some predecessor of t is marked). The property
// fails when a terminal state is marked.
//
// The marks phase computes the marks as it goes. Expanding s, a worker reads
// mark(s) and gives each successor t the marks it inherits along s → t; a
// new state is admitted with the union of the marks of its chunk's edges to
// it. Another edge whose marks t does not have yet sets them at once if t
// is still to be expanded (at the commit, when no worker runs), and is
// otherwise kept as a raise (the target's fingerprint, the source and the
// action). Marks only ever grow, and every mark is justified by a path, so
// none is wrong; what remains is to make the marks complete, that is
// closed under every edge. At the end of each level the raises are applied
// in frontier order. A raise on a state of the
// next level, not yet expanded, only sets its bits: its expansion will pass
// them on. A raise on any other state, already expanded (the breadth-first
// order is not a topological order: on Chang–Roberts at n = 5 a quarter of
// the transitions go to a state at the same or a lower level), re-expands
// it: the state is rebuilt by replaying its source's path from the trace log
// and the action, and the new bits are propagated depth-first through its
// successors, stopping at states that have them already or are still to be
// expanded. A state is re-expanded only when it gains a bit, so at most once
// per property. When the search ends every edge from a marked state to a
// ¬Q state leads to a marked state: the marks are exactly the reachable
// pending states, and a marked terminal state, seen when a state is expanded
// or re-expanded, is a violation.
//
// With the visited set in memory the marks live in its slots, beside each
// fingerprint (acyclic_slots.go); under partial-order reduction, and with
// the disk store, in an array indexed by state (acyclic_marks.go). With the
// disk store, which answers no lookups during a level, the marks of the
// level's edges travel with its candidates and are merged by the store
// instead of being kept as raises, and the gains of states stored before
// are passed on in rounds (acyclic_disk.go).
// A fingerprint collision could only add marks, never lose one; still, a
// run with exact states (Options.Exact) leaves liveness to the graph, whose
// index is exact too.
// A checkpoint of the first search saves the goals left unmet; the marks
// phase takes none: a run resumed from the first search's checkpoint redoes
// it, as the graph's liveness phase is redone.
//
// Under partial-order reduction the first search still reaches every
// terminal state (an ample set is empty only where nothing is enabled, and
// the reduction preserves every deadlock), so its test is the same; the
// marks phase is reduced too, and its marks follow the reduced graph's edges,
// the ample sets' (package por's doc, "Liveness", says why that decides
// the properties). A re-expansion, whose ample set could differ from the
// first since the store has grown, passes marks on along every transition
// to a stored state instead: each is a real transition, so no mark is
// unjustified, and among them are all the reduced graph's edges from that
// state, whose targets are all stored. The measure is checked at once on
// every transition the reduced expansion computes, none deferred
// (acyclic_bounds.go): a successor left out of the ample set is never
// stored, so never expanded, where its bound would be checked.
//
// The counterexample of a failed property is found afterwards by a
// breadth-first search over the marked region (acyclic_verdict.go), the same
// search the graph method makes, so it is a shortest one and the same trace.

// maxMarkedProps bounds the liveness properties decided by a measure: their
// marks are bits of a 32-bit word.
const maxMarkedProps = 32

// acyclic is a run's liveness-by-measure state.
type acyclic[S any] struct {
	sys  *model.System[S]
	term *model.Termination[S]
	// props lists the liveness properties with a state goal, whose marks
	// are the bits of a word in this order (a goal of "a terminal state"
	// holds on every finite run and needs none).
	props []*model.Property[S]
	// marks is set when the run opens its store (acyclic_marks.go);
	// marksBytes is their memory when the search ended, read before the
	// visited set is closed, which frees the marks it keeps in its slots.
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
	wrong *wrongTransition
	// bounds, with the visited set in memory, hold the measure's checks
	// deferred to the states not yet expanded (acyclic_bounds.go); nil
	// with the disk store, and under partial-order reduction, which
	// checks every transition at once.
	bounds *bounds
	// stored, under partial-order reduction, reports whether the state
	// with fingerprint fp is stored: a re-expansion passes marks on only
	// to those (propagate).
	stored func(fp uint64) bool
}

// raise is an edge from parent by action to the state with fingerprint fp,
// which gives it the marks mask.
type raise struct {
	fp     uint64
	parent uint32
	action uint32
	mask   uint32
}

// wrongTransition is a transition that does not decrease the measure: the
// step ends in the successor (hit), with the measure's values before and
// after.
type wrongTransition struct {
	at            hit
	before, after []int
}

// newAcyclic returns the measure's bookkeeping for sys, or nil when sys
// declares no measure, has no liveness property, or has more than
// maxMarkedProps of them; liveness is then decided on the graph. With
// withMarks the search computes the marks (the marks phase); without, it
// only records the goals its terminal states leave unmet.
func newAcyclic[S any](sys *model.System[S], withMarks bool) *acyclic[S] {
	if sys.Termination == nil {
		return nil
	}
	a := &acyclic[S]{sys: sys, term: sys.Termination, withMarks: withMarks}
	live := false
	for i := range sys.Props {
		p := &sys.Props[i]
		live = live || p.Kind.Liveness()
		if p.Kind.Liveness() && !p.Terminal {
			a.props = append(a.props, p)
		}
	}
	if !live || len(a.props) > maxMarkedProps {
		return nil
	}
	return a
}

// active reports whether the measure still holds: no transition has broken
// it so far.
func (a *acyclic[S]) active() bool { return a != nil && a.wrong == nil }

// marking reports whether the search computes the marks: in the marks
// phase, while the measure holds.
func (a *acyclic[S]) marking() bool { return a.active() && a.withMarks }

// unmetAt are the bits of the properties whose goal the terminal state s
// does not meet.
func (a *acyclic[S]) unmetAt(s *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if !p.State(s) {
			m |= 1 << j
		}
	}
	return m
}

// initialMarks are the marks of an initial state s.
func (a *acyclic[S]) initialMarks(s *S) uint32 {
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
func (a *acyclic[S]) edgeMarks(from uint32, t *S) uint32 {
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
func (a *acyclic[S]) inherited(from uint32, t *S) uint32 {
	var m uint32
	for j, p := range a.props {
		if from&(1<<j) != 0 && !p.State(t) {
			m |= 1 << j
		}
	}
	return m
}

// keepRaises applies, of a round's raises, in order, those that give their
// target marks it does not have once the round's new states are admitted
// with theirs: at once to a target still to be expanded, which will pass
// them on, and at the level's end (settle) to any other.
func (a *acyclic[S]) keepRaises(raises []raise) {
	for _, r := range raises {
		a.keep(r)
	}
}

// keepCandidates keeps, as raises, the marks of the candidates of batch k
// of a round that its commit did not admit: states admitted by an earlier
// chunk of the round (the edges to a state stored before the round are
// raiseSuccessors'), and merges their bounds (acyclic_bounds.go). A
// candidate whose marks are all among those of the candidate the state
// was admitted from gives it nothing (marks only grow), and needs no
// lookup in the store. The disk store,
// which defers its commits, merges the marks itself (acyclic_disk.go).
func (e *bfs[S]) keepCandidates(round []*batch, k int) {
	a, vals, at, b := e.acyc, e.vals(), e.marksAt(), round[k]
	for i, fp := range b.FPs {
		if b.Fresh(i) {
			continue
		}
		from, j := admittedBy(round[:k], fp)
		if a.withMarks {
			m := uint32(b.Vals[i*vals+at])
			if m != 0 && (from == nil || m&^uint32(from.Vals[j*vals+at]) != 0) {
				a.keep(raise{fp: fp, parent: b.Parents[i], action: b.Actions[i], mask: m})
			}
		}
		if bd := a.bounds; bd != nil && from != nil && from.ids[j] != store.NotStored {
			bd.merge(from.ids[j], b.bounds[i*bd.row():(i+1)*bd.row()])
		}
	}
}

// admittedBy is the batch, and the candidate in it, that admitted the
// state with fingerprint fp, nil if none of the batches did. With the
// store in memory, a candidate that a round's commit finds stored leads to
// a state admitted from an earlier batch of the round (the lookup before
// the round did not find it, and a batch holds each state once): the one
// whose candidate is fresh. The batches are searched from the latest,
// where the candidates of neighbouring chunks, which share successors the
// most, are.
func admittedBy(earlier []*batch, fp uint64) (*batch, int) {
	for k := len(earlier) - 1; k >= 0; k-- {
		if j, ok := earlier[k].At(fp); ok && earlier[k].Fresh(j) {
			return earlier[k], j
		}
	}
	return nil, 0
}

func (a *acyclic[S]) keep(r raise) {
	have, pending := a.marks.get(r.fp)
	switch {
	case r.mask&^have == 0:
	case pending:
		a.marks.raise(r.fp, have|r.mask, true)
	default:
		a.raises = append(a.raises, r)
	}
}

// settle applies the raises of the level depth just committed, re-expanding
// every state they raise that has already been expanded (see the doc
// above).
func (a *acyclic[S]) settle(e *bfs[S], depth int) error {
	defer func() { a.raises, a.gains = a.raises[:0], a.gains[:0] }()
	if !a.marking() {
		return nil
	}
	if a.onDisk != nil {
		return a.settleOnDisk(e, depth)
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
		init, actions, err := e.path(r.parent, depth)
		if err != nil {
			return err
		}
		s, err := Replay(a.sys, init, append(actions, packed.Unpack(r.action)))
		if err != nil {
			return fmt.Errorf("internal error: a state whose marks were raised does not replay: %v", err)
		}
		a.propagate(&s, gain)
	}
	return nil
}

// propagate passes the marks gain, just gained by the expanded state start,
// on through its successors (under reduction, its stored ones),
// depth-first, and records a marked terminal state as a failure.
func (a *acyclic[S]) propagate(start *S, gain uint32) {
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
func (a *acyclic[S]) passOn(cur *S, gain uint32, next *S, f func(enc []byte, m uint32)) bool {
	enabled := false
	for range a.sys.Steps(cur, next) {
		enabled = true
		if m := a.inherited(gain, next); m != 0 {
			f(a.sys.Encode(nil, next), m)
		}
	}
	return enabled
}
