// Package checker explores a model.System exhaustively and returns a verdict.
// It knows no spec: it sees states only through the System's rules, copy,
// encoding and properties.
//
// Exploration is breadth-first, level by level, so the first violation of a
// property found is one with a shortest trace. The visited set (package
// store) holds the states stored so far; a separate append-only trace log
// holds, per state, its origin: its parent's index and the action that
// reached it (TLC keeps its trace apart the same way). A trace is rebuilt by
// walking that log back to an initial state, then replayed forwards through
// the spec, checking that it reaches the recorded state: every trace mc
// prints is a real run.
//
// Liveness properties (leads-to, eventually) need every transition, not one
// origin per state: for them Run builds the whole state graph in a second
// exploration and searches it for fair cycles that avoid the goal (package
// liveness). A counterexample is a lasso, replayed and rechecked before it
// is returned.
//
// The packages under checker each hold one concern:
//
//   - store: the visited sets (memory, exact, disk) behind one interface,
//     each writing and recovering its own part of a checkpoint;
//   - por: partial-order reduction (Options.Reduce);
//   - liveness: the state graph, its strongly connected components,
//     fairness and lassos.
//
// This package is the engine that drives them: the search (explore.go,
// expand.go), its levels and trace log, checkpoints of the run, the
// results, the Stepper and the Target, which erases a system's state type.
//
// The library returns values; only cmd/mc prints.
package checker
