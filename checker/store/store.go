// Package store holds the visited sets of a run: the states stored so far,
// as 64-bit fingerprints in memory (memory.go), as full encodings in memory
// (exact.go, --exact), or as sorted runs of fingerprints on disk (disk.go,
// --store disk). They share one interface, Store, and each owns its part
// of a checkpoint, as TLC's fingerprint sets do (tlc2/tool/fp/FPSet:
// beginChkpt, commitChkpt, recover).
//
// The three live in one package because they share what the interface is
// made of (Candidates, the fingerprint table, the checkpoint sections) and
// hide nothing from one another.
package store

import "github.com/ringcheck/mc/checker/internal/diskio"

// Store is a run's visited set. Exploration is level-synchronous, so a
// store is used in alternating phases: while a round of a level is
// expanded any number of workers call SeenAll concurrently and nothing is
// written; then Commit adds the round's candidates in their deterministic
// order. That split keeps the stores free of locks.
//
// A store that cannot answer lookups cheaply (on disk) defers them: SeenAll
// finds nothing stored, Commit holds the candidates, and EndLevel decides
// them once per level (deferred.go). Either way the states are admitted in
// the same order: candidates in frontier order, the first of each state
// winning, so the states, their indices and every figure of a complete run
// are the same with every store.
type Store interface {
	// SeenAll reports, for every candidate of c, whether a state with its
	// fingerprint (or encoding) was stored by an earlier commit, reusing
	// seen's storage. A store may overlap the lookups' memory accesses;
	// one that defers reports false.
	//
	// A store of fingerprints answers false without a lookup for a
	// candidate NoteInChunk found in its chunk.
	SeenAll(c *Candidates, seen []bool) []bool
	// Prefetch starts loading what a lookup of fp will read, without
	// waiting: the expansion calls it as soon as a successor's fingerprint
	// is known, so that its cache miss runs while the state's other
	// successors are built. A store may do nothing.
	Prefetch(fp uint64)
	// Commit adds the candidates of a round, batch by batch in order, and
	// calls admit, in that order, on each that was not stored before and
	// is the first of its state in the round, until admit returns false.
	// It may use up to workers goroutines. A store that defers holds the
	// candidates until EndLevel instead.
	Commit(round []*Candidates, workers int, admit Admit) error
	// EndLevel, once every round of a level is committed, calls admit on
	// the candidates a deferring store held, as Commit would have; other
	// stores have nothing to do.
	EndLevel(admit Admit) error
	// Len is the number of states stored.
	Len() int64
	// Bytes is the memory the store holds; FileBytes the size of its files.
	Bytes() int64
	FileBytes() int64
	// Checkpoint writes the store's section of a checkpoint, making
	// whatever files the section names durable first. Committed is called
	// once the checkpoint holding the section is itself durable.
	Checkpoint(w *diskio.SectionWriter) error
	Committed() error
	// Recover restores an empty store from its section of a checkpoint of
	// a run that had stored states states. A section that is not what
	// Checkpoint writes is a *diskio.BadSection.
	Recover(r *diskio.Section, states int64) error
	// Close releases the store's memory and files.
	Close() error
}

// Admit is called on candidate i of c when a commit finds it new; it
// returns false when the run must stop.
type Admit func(c *Candidates, i int) bool

// Indexed is a visited set that also knows at which index each state was
// stored, as partial-order reduction's proviso needs: the indices are
// consecutive, in the order the states are admitted, from the number of
// states stored before. NewIndexedMemory and NewExact make one.
type Indexed interface {
	Store
	// IndexOf is the index of the stored state with this fingerprint and
	// encoding, or NotStored.
	IndexOf(fp uint64, enc []byte) uint32
}

// A Growing store maps its memory in steps as it fills (the memory store's
// tables grow by half when 3/4 full). Growth is what it would map to take
// n more states, so that a run stops before such a step passes its memory
// limit rather than after.
type Growing interface {
	Growth(n int64) int64
}

// NotStored is the index of a state not in the store.
const NotStored = ^uint32(0)
