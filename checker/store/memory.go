package store

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/offheap"
	"github.com/ringcheck/mc/checker/internal/prefetch"
)

// memory is the visited set in memory: 64 tables of bare 64-bit
// fingerprints (table.go), one per value of a fingerprint's top six bits,
// so that during Commit each shard is written by exactly one worker and no
// locks are needed.
//
// For partial-order reduction the store also keeps each state's index, 4
// more bytes per slot, beside its fingerprint (NewIndexedMemory); for a
// search extension (a termination measure's marks), each state's payload
// and a recent bit, a few bits per slot (NewPayloadMemory, payload.go). A
// checkpoint saves the indices too.
//
// The tables are mapped outside the Go heap (internal/offheap), and a table
// a shard outgrows is unmapped at once, so the store costs its tables' size
// and no garbage; Close unmaps them.
type memory struct {
	shards  [shardCount]table
	indexed bool
	// layout, if the store is WithPayload, says where the candidates carry
	// their payload.
	layout *PayloadLayout
	// owned[b][w] lists, in order, the candidates of the round's batch b
	// whose shard worker w writes (sortByOwner).
	owned [][][]int32
}

const (
	shardBits  = 6
	shardCount = 1 << shardBits
	// initialSlots is a shard's first table size, 512 KiB in all, so that
	// the many small runs (tests, sweeps) map little. A table that outgrows
	// it grows at once to grownSlots, 4 MiB in all, which spares the next
	// growths (each a map, a rehash and an unmap, calls that contend
	// between workers); starting at grownSlots instead would map 4 MiB for
	// every small run (docs/performance.md says what that cost the tests).
	initialSlots = 1 << 10
	grownSlots   = 1 << 13
)

// NewMemory returns an empty visited set of fingerprints in memory.
func NewMemory() Store { return newMemory() }

// NewIndexedMemory returns an empty visited set of fingerprints in memory
// that also keeps each state's index.
func NewIndexedMemory() Indexed {
	m := newMemory()
	m.indexed = true
	for i := range m.shards {
		m.shards[i].ids = offheap.Slice[uint32](len(m.shards[i].keys))
	}
	return m
}

func newMemory() *memory {
	m := &memory{}
	for i := range m.shards {
		m.shards[i] = table{keys: offheap.Slice[uint64](initialSlots), mapped: true}
	}
	return m
}

func shardOf(fp uint64) int { return int(fp >> (64 - shardBits)) }

// slot is the position of fp in its shard, or -1. It is table.slot, by
// hand: the lookups of every successor come through here.
func (m *memory) slot(fp uint64) int {
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

func (m *memory) IndexOf(fp uint64, _ []byte) uint32 {
	i := m.slot(fp)
	if i < 0 {
		return NotStored
	}
	return m.shards[shardOf(tableKey(fp))].ids[i]
}

// loadHomes reads the home slots of the first len(first) fingerprints into
// first: loads that depend on nothing loaded, so that their cache misses are
// under way together before the probes.
func (m *memory) loadHomes(fps []uint64, first *[16]uint64) {
	for i, fp := range fps[:min(len(fps), len(first))] {
		fp = tableKey(fp)
		keys := m.shards[shardOf(fp)].keys
		first[i] = keys[home(fp, len(keys))]
	}
}

// Prefetch starts loading fp's home slot.
func (m *memory) Prefetch(fp uint64) {
	fp = tableKey(fp)
	keys := m.shards[shardOf(fp)].keys
	prefetch.Line(unsafe.Pointer(&keys[home(fp, len(keys))]))
}

// SeenAll probes the slots of the successors not in their chunk, which
// the expansion prefetched (Prefetch) as it built them.
func (m *memory) SeenAll(c *Candidates, seen []bool) []bool {
	seen = seen[:0]
	for i, fp := range c.FPs {
		seen = append(seen, !c.InChunk(i) && m.slot(fp) >= 0)
	}
	return seen
}

func (m *memory) Commit(round []*Candidates, workers int, admit Admit) error {
	first := uint32(m.Len())
	for _, c := range round {
		c.clearFresh()
	}
	m.insert(round, max(workers, 1))
	if m.indexed {
		m.setIndices(round, first, workers)
	}
	admitFresh(round, admit)
	return nil
}

// insert adds the round's candidates, batch by batch in order, marking the
// new ones fresh.
func (m *memory) insert(round []*Candidates, workers int) {
	if workers == 1 {
		for _, c := range round {
			for i := range c.FPs {
				if i+insertAhead < len(c.FPs) {
					m.Prefetch(c.FPs[i+insertAhead])
				}
				m.add(c, i)
			}
		}
		return
	}
	// Each batch's candidates are first sorted out by the worker owning
	// their shard, batches shared among the workers; then each worker
	// inserts its own, batch by batch in order.
	for len(m.owned) < len(round) {
		m.owned = append(m.owned, nil)
	}
	byShard(workers, func(w int) {
		for b := w; b < len(round); b += workers {
			m.sortByOwner(b, round[b], workers)
		}
	})
	byShard(workers, func(w int) {
		for b, c := range round {
			own := m.owned[b][w]
			for k, i := range own {
				if k+insertAhead < len(own) {
					m.Prefetch(c.FPs[own[k+insertAhead]])
				}
				m.add(c, int(i))
			}
		}
	})
}

// insertAhead is how many candidates ahead of its insert the commit
// prefetches a candidate's home slot.
const insertAhead = 8

// add adds candidate i of c, marking it fresh if it is new; a new state
// of a WithPayload store gets the candidate's payload and is recent.
func (m *memory) add(c *Candidates, i int) {
	fp := tableKey(c.FPs[i])
	sh := &m.shards[shardOf(fp)]
	slot, added := sh.put(fp)
	c.fresh[i] = added
	if added && m.layout != nil {
		sh.payload.set(slot, m.payloadOf(c, i))
		sh.recent.set(slot, 1)
	}
}

// sortByOwner lists the candidates of c, batch b of the round, by the
// worker that writes their shard.
func (m *memory) sortByOwner(b int, c *Candidates, workers int) {
	for len(m.owned[b]) < workers {
		m.owned[b] = append(m.owned[b], nil)
	}
	owned := m.owned[b]
	for w := range owned {
		owned[w] = owned[w][:0]
	}
	for i, fp := range c.FPs {
		w := owner(shardOf(tableKey(fp)), workers)
		owned[w] = append(owned[w], int32(i))
	}
}

// setIndices records the indices of the fresh candidates of round,
// numbered in order from first.
func (m *memory) setIndices(round []*Candidates, first uint32, workers int) {
	byShard(workers, func(w int) {
		id := first
		for _, c := range round {
			for i, fp := range c.FPs {
				if !c.fresh[i] {
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

// admitFresh calls admit on the fresh candidates of round, in order, until
// it returns false.
func admitFresh(round []*Candidates, admit Admit) {
	for _, c := range round {
		for i, fresh := range c.fresh {
			if fresh && !admit(c, i) {
				return
			}
		}
	}
}

// byShard runs f(w) on workers goroutines; worker w owns the shards that
// owner gives it.
func byShard(workers int, f func(w int)) {
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
// cache line of the shards array (a table's count and header).
func owner(sh, workers int) int { return sh * max(workers, 1) / shardCount }

// EndLevel has nothing to do: every commit is decided at once.
func (m *memory) EndLevel(Admit) error { return nil }

func (m *memory) Len() int64 {
	var n int64
	for i := range m.shards {
		n += int64(m.shards[i].n)
	}
	return n
}

func (m *memory) Bytes() int64 {
	var b int64
	for i := range m.shards {
		b += int64(len(m.shards[i].keys))*8 + int64(len(m.shards[i].ids))*4
	}
	if m.layout != nil {
		b += m.PayloadBytes()
	}
	return b
}

// Growth is what the shards' tables map if n more states come: a
// fingerprint's shard is its top bits, so the states spread evenly and the
// shards fill, and grow, together; each is given twice its even share.
func (m *memory) Growth(n int64) int64 {
	share := int(2*n/shardCount) + 1
	var b int64
	for i := range m.shards {
		b += m.shards[i].growth(share)
	}
	return b
}

func (m *memory) FileBytes() int64 { return 0 }

// Checkpoint writes the store's section: the number of fingerprints, then
// each, 8 bytes little-endian, shard by shard, followed, if the store is
// indexed, by its state's index. A WithPayload store is not saved: the
// search that keeps a payload (package checker's marks phase) takes no
// checkpoint.
func (m *memory) Checkpoint(w *diskio.SectionWriter) error {
	if m.layout != nil {
		return fmt.Errorf("internal error: a checkpoint of a visited set with a payload")
	}
	w.Uint(uint64(m.Len()))
	for i := range m.shards {
		sh := &m.shards[i]
		for j, k := range sh.keys {
			if k == 0 {
				continue
			}
			w.Uint64(k)
			if m.indexed {
				w.Uint(uint64(sh.ids[j]))
			}
		}
	}
	return nil
}

// Committed has nothing to release.
func (m *memory) Committed() error { return nil }

// Recover inserts the fingerprints of the store's section of a checkpoint,
// and their indices if the store keeps them, into the empty store, which
// must then hold one per state of the run. The section lists them shard by
// shard, each shard's in the order of its slots, which is the order of the
// fingerprints: inserted one by one into a table that grows as it fills,
// such keys would all have their homes at the start of the small table and
// pile up into one cluster that every later key probes through. So each
// shard's keys are gathered first and its table sized for them at once
// (table.reserve), as large as an uninterrupted run's.
func (m *memory) Recover(r *diskio.Section, states int64) error {
	var run shardRun
	for n := r.Uint(); n > 0 && r.Err() == nil; n-- {
		fp := r.Uint64()
		var id uint64
		if m.indexed {
			id = r.Uint()
		}
		if r.Err() != nil {
			break
		}
		if id >= uint64(states) {
			return &diskio.BadSection{Why: "a state index past the trace log"}
		}
		if len(run.keys) > 0 && shardOf(fp) != shardOf(run.keys[0]) {
			m.insertRun(&run)
		}
		run.keys = append(run.keys, fp)
		if m.indexed {
			run.ids = append(run.ids, uint32(id))
		}
	}
	m.insertRun(&run)
	switch {
	case r.Err() != nil:
		return &diskio.BadSection{Why: "truncated or overlong sections"}
	case m.Len() != states:
		return &diskio.BadSection{Why: "visited set and trace log disagree"}
	}
	return nil
}

// shardRun is the fingerprints, and their indices if the store keeps
// them, that Recover read in a row from one shard.
type shardRun struct {
	keys []uint64
	ids  []uint32
}

// insertRun inserts the keys of run, all of one shard, into that shard's
// table, sized for them first, and empties run.
func (m *memory) insertRun(run *shardRun) {
	if len(run.keys) == 0 {
		return
	}
	sh := &m.shards[shardOf(run.keys[0])]
	sh.reserve(sh.n + len(run.keys))
	for i, fp := range run.keys {
		slot, added := sh.put(fp)
		if added && m.indexed {
			sh.ids[slot] = run.ids[i]
		}
	}
	run.keys, run.ids = run.keys[:0], run.ids[:0]
}

// Close unmaps the tables; the store must not be used afterwards.
func (m *memory) Close() error {
	for i := range m.shards {
		s := &m.shards[i]
		s.free(s.keys, s.ids)
		s.payload.free()
		s.recent.free()
		s.keys, s.ids, s.payload, s.recent, s.n = nil, nil, column{}, column{}, 0
	}
	return nil
}
