package checker

// Visited is the set of states seen so far, keyed by fingerprint. Each state
// gets an index in discovery order, which the trace log is keyed by. The
// interface is small so that a disk-backed store and concurrent tables can
// take its place without touching the explorer's callers.
type Visited interface {
	// Insert adds fp and returns its index; fresh is false when fp was
	// already present, and id is then the index it was given before.
	Insert(fp uint64) (id uint32, fresh bool)
	// Len is the number of states stored.
	Len() int
	// Bytes is the memory the set holds.
	Bytes() int64
}

// memTable is an open-addressing hash table of fingerprints with linear
// probing. Fingerprint 0 marks an empty slot, so a real 0 is stored as 1:
// that merges two fingerprints, which costs no more than any other 64-bit
// collision.
type memTable struct {
	keys []uint64
	ids  []uint32
	n    int
	mask uint64
}

func newMemTable() *memTable {
	const initial = 1 << 12
	return &memTable{keys: make([]uint64, initial), ids: make([]uint32, initial), mask: initial - 1}
}

func (t *memTable) Insert(fp uint64) (uint32, bool) {
	if fp == 0 {
		fp = 1
	}
	if 4*(t.n+1) > 3*len(t.keys) {
		t.grow()
	}
	i := fp & t.mask
	for {
		k := t.keys[i]
		if k == fp {
			return t.ids[i], false
		}
		if k == 0 {
			t.keys[i] = fp
			id := uint32(t.n)
			t.ids[i] = id
			t.n++
			return id, true
		}
		i = (i + 1) & t.mask
	}
}

func (t *memTable) grow() {
	old, oldIDs := t.keys, t.ids
	size := 2 * len(old)
	t.keys, t.ids, t.mask = make([]uint64, size), make([]uint32, size), uint64(size-1)
	for j, k := range old {
		if k == 0 {
			continue
		}
		i := k & t.mask
		for t.keys[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.keys[i], t.ids[i] = k, oldIDs[j]
	}
}

func (t *memTable) Len() int { return t.n }

func (t *memTable) Bytes() int64 { return int64(len(t.keys)) * (8 + 4) }
