// Package checker explores a model.System exhaustively and returns a verdict.
// It knows no spec: it sees states only through the System's rules, copy,
// encoding and properties.
//
// Exploration is breadth-first, level by level, so the first violation of a
// property found is one with a shortest trace. The visited set (Visited)
// maps 64-bit fingerprints of canonical encodings to state indices; a
// separate append-only log holds, per state, its parent's index and the action
// that reached it (TLC keeps its trace apart the same way). A trace is
// rebuilt by walking that log back to an initial state, then replayed
// forwards through the spec, checking that it reaches the recorded state:
// every trace mc prints is a real run.
//
// Liveness properties (leads-to, eventually) need every transition, not one
// origin per state: for them Run builds the whole state graph in a
// second exploration (graph.go) and searches it for fair cycles that avoid
// the goal (liveness.go, scc.go, fairness.go). A counterexample is a lasso,
// replayed and rechecked before it is returned (lasso.go).
//
// The library returns values; only cmd/mc prints.
//
// Partial-order reduction (Options.Reduce) is package por, the visited sets
// (memory, exact and disk) package store.
package checker
