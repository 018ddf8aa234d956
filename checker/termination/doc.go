// Package termination decides liveness from a termination measure, as an
// extension of package checker's breadth-first search (package extension).
//
// A spec may declare a measure
// (model.Termination) that every transition strictly decreases. The
// breadth-first search checks it on every transition it generates (at once,
// or at the target's expansion: bounds.go); if it
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
// marks phase (package checker's marksPhase), explores the same states
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
// fingerprint (slots.go); under partial-order reduction, and with
// the disk store, in an array indexed by state (marks.go). With the
// disk store, which answers no lookups during a level, the marks of the
// level's edges travel with its candidates and are merged by the store
// instead of being kept as raises, and the gains of states stored before
// are passed on in rounds (disk.go).
// A fingerprint collision could only add marks, never lose one; still, a
// run with exact states (checker.Options.Exact) leaves liveness to the graph, whose
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
// (bounds.go): a successor left out of the ample set is never
// stored, so never expanded, where its bound would be checked.
//
// The counterexample of a failed property is found afterwards by a
// breadth-first search over the marked region (counterexample.go), the same
// search the graph method makes, so it is a shortest one and the same trace.
package termination
