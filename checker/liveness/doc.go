// Package liveness checks "P leads to Q" and "eventually Q" under weak
// fairness on the whole reachable state graph.
//
// What is checked. A run is a maximal path of the state graph from an
// initial state: infinite, or finite and ending in a terminal state (no
// action enabled). "P leads to Q" fails when some fair run has a state
// satisfying P ∧ ¬Q after which Q never holds; "eventually Q" fails when some
// fair run never satisfies Q. A finite run is always fair (nothing is
// enabled at its end), so a run that stops in a terminal state before Q
// holds is a violation: mc does not add stuttering steps. An infinite run is
// fair when, for every fairness class c (fairness.go), c is not enabled
// continuously from some point on without being taken again.
//
// Weak fairness on a strongly connected component. Let C be a strongly
// connected component of the sub-graph of ¬Q states that has at least one
// edge (two or more states, or a self-loop). Call C fair when every class
// that is enabled in every state of C (in the full graph: an enabled action
// leading out of C counts) is taken by some edge inside C. If C is fair, a
// run that goes round C through all its states and edges forever is fair and
// never meets Q. If C is not fair, no run that stays in C's states forever
// is fair, nor one that stays in any part of C, since a class enabled in all
// of C is enabled in all of the part and taken nowhere in it. So it is
// enough to examine the maximal components; unlike strong fairness, weak
// fairness needs no recursive decomposition. Note what weak fairness does
// not promise: a class that is disabled in one state of a cycle may be
// ignored forever on that cycle.
//
// The algorithm, per property:
//
//  1. Build or record the reachable graph with every transition and its
//     action (graph.go), evaluating P and Q on every state.
//  2. Decompose the sub-graph of ¬Q states into strongly connected components
//     (scc.go: Pearce's space-efficient Tarjan, iterative). A component is
//     bad when it is fair and has an edge, or when it is a terminal state.
//     Components are emitted in reverse topological order, so in the same
//     pass a component is marked "can fail" when it is bad or has an edge
//     to a ¬Q component that can fail.
//  3. Breadth-first search from the initial states over pairs (state, phase):
//     phase 0 is before P held (any state); a P ∧ ¬Q state that can fail
//     switches to phase 1 in place; phase 1 follows only ¬Q states that can
//     fail. For "eventually Q" the search starts in phase 1. The first phase-1
//     state in a bad component is the entry of the loop, and the search path
//     to it is the shortest prefix of any counterexample.
//  4. The loop: from the entry, within its component, visit for every class
//     a state where it is disabled or else take an edge of that class, then
//     return to the entry (each leg a shortest path). A terminal entry has no
//     loop: the counterexample is a finite maximal run.
//  5. The lasso is replayed through the spec before it is returned: every
//     step must be enabled, the loop must close on the state it starts from
//     (or the run must end in a terminal state), P must hold at some state
//     from which Q never holds again, and the loop must be fair, with
//     enabledness recomputed from the rules, independently of the graph.
//
// Memory: the graph is flat arrays of numbers (graph.go): per transition
// its target and its action's code (5 to 8 bytes), per state a fingerprint
// and an edge offset (12), and, during the build only, the index from
// fingerprint to state (5 to 11). Each property then needs about 16 bytes
// per state for the components and the search (SearchBytesPerState), and
// two bits for P and Q.
//
// Disk: with Limits.Spill the edges go to files, at once (--store disk) or
// when memory runs short during the build, and are mapped read-only once
// it is done (column.go); the per-state arrays stay in memory. The
// decomposition and the searches are then semi-external: O(states) words
// in memory, the edges read through the kernel's page cache. Each state's
// edges are contiguous, so a visit costs at most one page read, and the
// kernel keeps the pages it has room for.
//
// Where the graph comes from: the checker's breadth-first search records it
// as it goes (Recorder, record.go), so that a run explores once; Build
// explores the model itself (on Limits.Workers goroutines) when the search
// could not record it: a disk store, a resumed or stopped search, memory
// too short to keep the graph beside the search. Both give the same graph.
//
// Limits. The run's limits hold here as in the exploration (the checker's
// Guard): the state limit, the timeout (counted from the run's start),
// Ctrl-C and the memory limit stop the build, which keeps
// SearchBytesPerState per state free under
// the memory limit for the search; the time, Ctrl-C and memory are checked
// again before each property's search, and within the decomposition and the
// search every 2^16 steps (Graph.Halted), which matters when the edges are
// on disk. When the build stops, only the
// states whose transitions were all stored take part: a lasso found among
// them is a real counterexample (their enabled classes are known), so the
// property fails; otherwise its verdict is incomplete, never pass, and the
// graph's cycles are not counted, so that nothing claims every run is
// finite.
//
// The first violation. Unless checker.Options.Continue is set, a run whose
// safety properties failed does not check liveness at all, and the
// properties are checked in order up to the first that fails; the rest are
// not checked (the checker's liveness phase decides this).
package liveness
