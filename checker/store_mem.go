package checker

import (
	"math/bits"
	"sync"

	"mc/checker/internal/offheap"
)

// memStore is the in-memory visited set: 64 open-addressing tables of bare
// 64-bit fingerprints with linear probing, one per value of a fingerprint's
// top six bits. A fingerprint's home slot is the high half of the product of
// its remaining bits and the table size, so a table can have any size and
// grows by half when it is 3/4 full: a state costs 8 bytes per slot at a load
// factor between 1/2 and 3/4, 13 bytes on average. Fingerprint 0 marks an
// empty slot, so a real 0 is stored as 1: that merges two fingerprints, which
// costs no more than any other 64-bit collision. During Commit each shard is
// written by exactly one worker, so no locks are needed.
//
// For partial-order reduction the store also keeps each state's index, 4
// more bytes per slot, beside its fingerprint (newIndexedMemStore).
//
// The tables are mapped outside the Go heap (internal/offheap), and a table a
// shard outgrows is unmapped at once, so the store costs its tables' size and
// no garbage; Close unmaps them.
type memStore struct {
	shards  [shardCount]shard
	indexed bool
}

const (
	shardBits  = 6
	shardCount = 1 << shardBits
	// initialSlots is a shard's first table size, 512 KiB in all, so that
	// the many small runs (tests, sweeps) map little. A table that outgrows
	// it grows at once to grownSlots, 4 MiB in all, which spares the next
	// growths (each a map, a rehash and an unmap, calls that contend
	// between workers). Chang–Roberts n = 10, 2 workers: 0.93–0.95 s
	// growing by half from 1,024 slots, 0.89 s from 8,192. Starting at
	// 8,192 made the specs' tests twice as slow, mapping 4 MiB per run.
	initialSlots = 1 << 10
	grownSlots   = 1 << 13
)

type shard struct {
	keys []uint64
	// ids[i] is the index of the state in keys[i], if indexed.
	ids []uint32
	n   int
	// mapped says keys and ids come from offheap.Slice.
	mapped bool
}

func newMemStore() *memStore {
	m := &memStore{}
	for i := range m.shards {
		m.shards[i] = shard{keys: offheap.Slice[uint64](initialSlots), mapped: true}
	}
	return m
}

func newIndexedMemStore() *memStore {
	m := newMemStore()
	m.indexed = true
	for i := range m.shards {
		m.shards[i].ids = offheap.Slice[uint32](len(m.shards[i].keys))
	}
	return m
}

func shardOf(fp uint64) int { return int(fp >> (64 - shardBits)) }

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

func (m *memStore) Seen(fp uint64, _ []byte) bool { return m.slot(fp) >= 0 }

// slot is the position of fp in its shard, or -1.
func (m *memStore) slot(fp uint64) int {
	fp = tableKey(fp)
	keys := m.shards[shardOf(fp)].keys
	for i := home(fp, len(keys)); ; i++ {
		if i == len(keys) {
			i = 0
		}
		switch keys[i] {
		case fp:
			return i
		case 0:
			return -1
		}
	}
}

// IndexOf is the index of the state with fingerprint fp, or notStored.
// The store must be indexed.
func (m *memStore) IndexOf(fp uint64, _ []byte) uint32 {
	i := m.slot(fp)
	if i < 0 {
		return notStored
	}
	return m.shards[shardOf(tableKey(fp))].ids[i]
}

// SetIndices records the indices of the fresh candidates of batches,
// numbered in order from first.
func (m *memStore) SetIndices(batches []*batch, first uint32, workers int) {
	m.byShard(workers, func(w int) {
		id := first
		for _, b := range batches {
			for i, fp := range b.fps {
				if !b.fresh[i] {
					continue
				}
				fp = tableKey(fp)
				if sh := shardOf(fp); owner(sh, workers) == w {
					m.shards[sh].ids[m.slot(fp)] = id
				}
				id++
			}
		}
	})
}

func (m *memStore) SeenAll(b *batch, seen []bool) []bool {
	seen = seen[:0]
	// First read every home slot, loads that depend on nothing loaded, so
	// that their cache misses are under way together; then probe.
	var first [16]uint64
	for i, fp := range b.fps[:min(len(b.fps), len(first))] {
		fp = tableKey(fp)
		keys := m.shards[shardOf(fp)].keys
		first[i] = keys[home(fp, len(keys))]
	}
	for i, fp := range b.fps {
		if i < len(first) && first[i] == 0 {
			seen = append(seen, false)
			continue
		}
		seen = append(seen, m.slot(fp) >= 0)
	}
	return seen
}

// insert adds fp to its shard and reports whether it was new.
func (s *shard) insert(fp uint64) bool {
	if 4*(s.n+1) > 3*len(s.keys) {
		s.grow()
	}
	for i := home(fp, len(s.keys)); ; i++ {
		if i == len(s.keys) {
			i = 0
		}
		switch s.keys[i] {
		case fp:
			return false
		case 0:
			s.keys[i] = fp
			s.n++
			return true
		}
	}
}

func (s *shard) grow() {
	old, oldIDs := s.keys, s.ids
	size := max(len(old)+len(old)/2, grownSlots)
	if s.mapped {
		s.keys = offheap.Slice[uint64](size)
	} else {
		s.keys = make([]uint64, size)
	}
	if oldIDs != nil {
		s.ids = offheap.Slice[uint32](size)
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
	}
	s.free(old, oldIDs)
}

// free returns a shard's tables to the kernel if they were mapped.
func (s *shard) free(keys []uint64, ids []uint32) {
	if s.mapped {
		offheap.Free(keys)
		offheap.Free(ids)
	}
}

func (m *memStore) Commit(batches []*batch, workers int) error {
	workers = max(workers, 1)
	if workers == 1 {
		for _, b := range batches {
			for i, fp := range b.fps {
				fp = tableKey(fp)
				b.fresh[i] = m.shards[shardOf(fp)].insert(fp)
			}
		}
		return nil
	}
	// Each batch's candidates are first sorted out by the worker owning
	// their shard, batches shared among the workers; then each worker
	// inserts its own, batch by batch in order.
	m.byShard(workers, func(w int) {
		for bi := w; bi < len(batches); bi += workers {
			batches[bi].sortByOwner(workers)
		}
	})
	m.byShard(workers, func(w int) {
		for _, b := range batches {
			for _, i := range b.owned[w] {
				fp := tableKey(b.fps[i])
				b.fresh[i] = m.shards[shardOf(fp)].insert(fp)
			}
		}
	})
	return nil
}

// byShard runs f(w) on workers goroutines; worker w owns the shards that
// owner gives it.
func (m *memStore) byShard(workers int, f func(w int)) {
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			f(w)
		}(w)
	}
	wg.Wait()
}

// owner is the worker that writes shard sh during Commit: workers own
// consecutive ranges of shards, so that two workers seldom write the same
// cache line of the shards array (a shard's count and table header).
func owner(sh, workers int) int { return sh * max(workers, 1) / shardCount }

func (m *memStore) Len() int64 {
	var n int64
	for i := range m.shards {
		n += int64(m.shards[i].n)
	}
	return n
}

func (m *memStore) Bytes() int64 {
	var b int64
	for i := range m.shards {
		b += int64(len(m.shards[i].keys))*8 + int64(len(m.shards[i].ids))*4
	}
	return b
}

// Close unmaps the tables; the store must not be used afterwards.
func (m *memStore) Close() error {
	for i := range m.shards {
		s := &m.shards[i]
		s.free(s.keys, s.ids)
		s.keys, s.ids, s.n = nil, nil, 0
	}
	return nil
}
