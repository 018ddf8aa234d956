// Package runstore is mc's run store: what mc has already computed, kept
// in a directory (.mc in the working directory by default) so that it is
// not computed again, and so that a check's result outlives its terminal.
// It holds two kinds of record:
//   - the history of checks: every completed mc check, numbered, with its
//     summary, what it printed and its counterexample or witness run as a
//     trace file (Check);
//   - a sweep's classes: the costs and witness runs of one arrangement
//     class, which mc sweep and mc ci reuse instead of recomputing
//     (package sweep keys and decodes them).
//
// Every record carries the Key it was computed from, and is reused only
// for an equal key. The records live in Badger
// (github.com/dgraph-io/badger/v4), a key-value store with transactions
// and crash recovery: a record is written in one transaction, so a process
// killed at any moment leaves it whole or absent, never half-written.
//
// The package refuses, rather than guesses: a directory that is not a run
// store, a store of another format, a damaged record or table, a store
// another process holds, and a file system too full to write to safely
// each give an error that names the store (Refused, InUse, Unwritable).
// Only cmd/mc prints; docs/runstore.md is the user's guide.
package runstore
