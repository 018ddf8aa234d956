package checker

// Store is the visited set in memory: the fingerprints (or, with --exact,
// the full encodings) of the states stored so far. Exploration is
// level-synchronous, so a store is used in two alternating phases: while a
// round of a level is expanded any number of workers call Seen
// concurrently and nothing is written; then Commit adds the round's
// candidates in their deterministic order. That split keeps the store free
// of locks. The disk store (store_disk.go) is asked once per level instead
// (ddd.go).
type Store interface {
	// Seen reports whether a state with this fingerprint and encoding was
	// stored by an earlier Commit. A store that cannot answer cheaply may
	// return false; Commit then filters the state.
	Seen(fp uint64, enc []byte) bool
	// SeenAll answers Seen for every candidate of b into seen, reusing its
	// storage; a store can overlap the lookups' memory accesses.
	SeenAll(b *batch, seen []bool) []bool
	// Commit adds the candidates of batches, in order, and sets fresh[i] on
	// every candidate that was not stored before and is the first of its
	// kind in the batches. It may use up to workers goroutines.
	Commit(batches []*batch, workers int) error
	// Len is the number of states stored.
	Len() int64
	// Bytes is the memory the store holds.
	Bytes() int64
	// Close releases the store's resources.
	Close() error
}

// indexedStore is a visited set that also knows at which index each state
// was stored, as partial-order reduction's proviso needs (C3 in the package
// doc): the memory store made by newIndexedMemStore, and the exact store.
type indexedStore interface {
	Store
	// IndexOf is the index of the stored state with this fingerprint and
	// encoding, or notStored.
	IndexOf(fp uint64, enc []byte) uint32
	// SetIndices records the indices of the fresh candidates of batches,
	// numbered in order from first, after Commit.
	SetIndices(batches []*batch, first uint32, workers int)
}

// notStored is the index of a state not in the store.
const notStored = ^uint32(0)
