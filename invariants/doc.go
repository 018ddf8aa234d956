// Package invariants holds properties that many specs share, written over
// small view interfaces so that any spec's state can offer them: Election for
// leader election, Mutex for mutual exclusion. Each function is a plain
// predicate; a spec wraps it into a model.Property with its own name and
// seed reference.
package invariants
