package store

import (
	"math/bits"

	"github.com/ringcheck/mc/checker/internal/offheap"
)

// table is an open-addressing set of 64-bit fingerprints with linear
// probing, and, when ids is not nil, each one's state index beside it;
// when payload has words, each one's payload and recent bit (payload.go). A
// fingerprint's home slot is the high half of the product of its bits below
// the shard bits and the table size, so a table can have any size; it grows
// by half when it is 3/4 full, so that a state costs 8 bytes per slot at a
// load factor between 1/2 and 3/4, 13 bytes on average. Fingerprint 0 marks
// an empty slot, so a real 0 is held as 1 (tableKey): that merges two
// fingerprints, which costs no more than any other 64-bit collision.
type table struct {
	keys []uint64
	// ids[i] is the index of the state in keys[i], if indexed.
	ids []uint32
	// payload and recent are the payload and recent bit of the state in
	// each slot, if the table's store is WithPayload.
	payload, recent column
	n               int
	// mapped says keys and ids come from offheap.Slice.
	mapped bool
}

// tableKey is fp as the tables hold it: 0 marks an empty slot, so a
// fingerprint 0 is held as 1.
func tableKey(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

// home is fp's first slot in a table of size slots.
func home(fp uint64, size int) int {
	hi, _ := bits.Mul64(fp<<shardBits, uint64(size))
	return int(hi)
}

// insert adds key fp and reports whether it was new.
func (s *table) insert(fp uint64) bool {
	_, added := s.put(fp)
	return added
}

// put adds key fp if it is new, and returns its slot and whether it was
// new.
func (s *table) put(fp uint64) (int, bool) {
	if !fits(s.n+1, len(s.keys)) {
		s.grow()
	}
	for i := home(fp, len(s.keys)); ; i++ {
		if i == len(s.keys) {
			i = 0
		}
		switch s.keys[i] {
		case fp:
			return i, false
		case 0:
			s.keys[i] = fp
			s.n++
			return i, true
		}
	}
}

// grownSize is the size a table of size slots grows to.
func grownSize(size int) int { return max(size+size/2, grownSlots) }

// fits reports whether a table of size slots holds n keys without growing.
func fits(n, size int) bool { return 4*n <= 3*size }

func (s *table) grow() { s.resize(grownSize(len(s.keys))) }

// reserve grows the table at once to the size that put, growing step by
// step, would give it once it holds n keys: keys known to come (a
// checkpoint's, memory.Recover) then go into a table of its final size,
// as large as in a run that inserted them one by one.
func (s *table) reserve(n int) {
	size := len(s.keys)
	for !fits(n, size) {
		size = grownSize(size)
	}
	if size > len(s.keys) {
		s.resize(size)
	}
}

// resize moves the table's keys, and what it keeps beside them, to new
// arrays of size slots.
func (s *table) resize(size int) {
	old, oldIDs, oldPayload, oldRecent := s.keys, s.ids, s.payload, s.recent
	if s.mapped {
		s.keys = offheap.Slice[uint64](size)
	} else {
		s.keys = make([]uint64, size)
	}
	if oldIDs != nil {
		s.ids = offheap.Slice[uint32](size)
	}
	withPayload := oldPayload.words != nil
	if withPayload {
		s.payload, s.recent = newColumn(oldPayload.bits, size), newColumn(1, size)
	}
	for j, k := range old {
		if k == 0 {
			continue
		}
		i := home(k, len(s.keys))
		for s.keys[i] != 0 {
			if i++; i == len(s.keys) {
				i = 0
			}
		}
		s.keys[i] = k
		if oldIDs != nil {
			s.ids[i] = oldIDs[j]
		}
		if withPayload {
			s.payload.set(i, oldPayload.get(j))
			s.recent.set(i, oldRecent.get(j))
		}
	}
	s.free(old, oldIDs)
	oldPayload.free()
	oldRecent.free()
}

// growth is the memory the table maps if it must grow to take n more
// states: its new arrays, held beside the old while it rehashes; 0 if they
// fit.
func (s *table) growth(n int) int64 {
	if fits(s.n+n, len(s.keys)) {
		return 0
	}
	size := grownSize(len(s.keys))
	b := int64(size) * 8
	if s.ids != nil {
		b += int64(size) * 4
	}
	if s.payload.words != nil {
		b += int64((size*int(s.payload.bits)+63)/64+(size+63)/64) * 8
	}
	return b
}

// free returns a table's arrays to the kernel if they were mapped.
func (s *table) free(keys []uint64, ids []uint32) {
	if s.mapped {
		offheap.Free(keys)
		offheap.Free(ids)
	}
}
