package checker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// diskStore keeps the fingerprints in a Badger database under a directory,
// so the visited set may outgrow memory. It makes no lookup while a level is
// expanded (Seen is always false); Commit instead takes a round's candidates
// at once, drops the repeats in memory, looks the distinct fingerprints up in
// sorted order and writes the new ones in one batch: delayed duplicate
// detection, one pass per round instead of one lookup per state. Each key's
// value is the level that stored it, so a resumed run can drop what was
// stored after its checkpoint.
//
// Most repeats in a breadth-first search are states of the level being
// built, so the fingerprints of that level are also kept in memory
// (recent): Seen answers from them during expansion, and Commit asks Badger
// only about the rest, most of them absent, which Badger's Bloom filters
// answer without reading a table (Chang–Roberts, n = 10: 2.0 million
// lookups for 6.3 million transitions, 0.8 million of them repeats of older
// levels). That memory is bounded by a level's width, not by the state
// space.
type diskStore struct {
	db *badger.DB
	n  int64
	// gcPercent is the collector's setting before the store lowered it.
	gcPercent int
	// recent holds the fingerprints of level depth.
	recent *memStore
	depth  int
	// scratch for Commit
	order []candRef
	keys  []byte
}

const diskGCPercent = 25

// candRef names candidate i of batch b by its fingerprint.
type candRef struct {
	fp   uint64
	b, i int
}

// openDiskStore opens (or creates) the store in dir. Its options bound the
// memory Badger takes beside what it maps from its files: small memtables,
// small tables at every level (a compaction builds a few at a time, each in
// a buffer of twice its size), no block cache (blocks are read in place from
// the mapped tables, uncompressed), and fingerprints stored in the keys, with
// values too small for the value log. Badger leaves much garbage on the Go
// heap, and builds its tables in buffers it keeps for reuse, so while the
// store is open the collector runs at diskGCPercent: the heap may outgrow
// what is live by a quarter, instead of doubling it.
func openDiskStore(dir string) (*diskStore, error) {
	opts := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithMetricsEnabled(false).
		WithSyncWrites(false).
		WithDetectConflicts(false).
		WithCompression(options.None).
		WithMemTableSize(4 << 20).
		WithNumMemtables(2).
		WithBaseTableSize(1 << 20).
		WithBaseLevelSize(16 << 20).
		WithNumLevelZeroTables(4).
		WithNumLevelZeroTablesStall(12).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2)
	opts.TableSizeMultiplier = 1
	db, err := badger.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("opening the disk store in %s: %v", dir, err)
	}
	d := &diskStore{db: db, recent: newMemStore(), depth: -1, gcPercent: debug.SetGCPercent(diskGCPercent)}
	if d.gcPercent >= 0 && d.gcPercent < diskGCPercent {
		debug.SetGCPercent(d.gcPercent) // a lower setting is kept
	}
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			d.n++
		}
		return nil
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func (d *diskStore) Seen(fp uint64, _ []byte) bool { return d.recent.Seen(fp, nil) }

func (d *diskStore) SeenAll(b *batch, seen []bool) []bool {
	seen = seen[:0]
	for _, fp := range b.fps {
		seen = append(seen, d.Seen(fp, nil))
	}
	return seen
}

func (d *diskStore) Commit(batches []*batch, depth, _ int) error {
	if depth != d.depth {
		d.recent.Close()
		d.recent, d.depth = newMemStore(), depth
	}
	d.order = d.order[:0]
	for bi, b := range batches {
		for i, fp := range b.fps {
			if !d.Seen(fp, nil) {
				d.order = append(d.order, candRef{fp: fp, b: bi, i: i})
			}
		}
	}
	// Sorting by fingerprint, then by position, puts each fingerprint's
	// first candidate first.
	slices.SortFunc(d.order, func(x, y candRef) int {
		switch {
		case x.fp != y.fp:
			return cmpU64(x.fp, y.fp)
		case x.b != y.b:
			return x.b - y.b
		}
		return x.i - y.i
	})
	// The batch keeps the keys it is given until it is flushed: they are
	// cut from one buffer per round.
	d.keys = slices.Grow(d.keys[:0], 8*len(d.order))
	wb := d.db.NewWriteBatch()
	defer wb.Cancel()
	val := binary.AppendUvarint(nil, uint64(depth))
	err := d.db.View(func(txn *badger.Txn) error {
		for k, c := range d.order {
			if k > 0 && d.order[k-1].fp == c.fp {
				continue
			}
			n := len(d.keys)
			d.keys = binary.BigEndian.AppendUint64(d.keys, c.fp)
			key := d.keys[n:len(d.keys):len(d.keys)]
			_, err := txn.Get(key)
			if err == nil {
				d.keys = d.keys[:n]
				continue
			}
			if !errors.Is(err, badger.ErrKeyNotFound) {
				return err
			}
			if err := wb.Set(key, val); err != nil {
				return err
			}
			batches[c.b].fresh[c.i] = true
			d.n++
			fp := c.fp
			if fp == 0 {
				fp = 1
			}
			d.recent.shards[shardOf(fp)].insert(fp)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return wb.Flush()
}

func cmpU64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// clear empties the store.
func (d *diskStore) clear() error {
	d.n = 0
	d.forget()
	return d.db.DropAll()
}

// dropAfter deletes the fingerprints stored by levels after level, undoing
// the work of a run that was killed after its last checkpoint.
func (d *diskStore) dropAfter(level int) error {
	var stale [][]byte
	err := d.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			err := item.Value(func(v []byte) error {
				if l, _ := binary.Uvarint(v); int(l) > level {
					stale = append(stale, item.KeyCopy(nil))
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	wb := d.db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range stale {
		if err := wb.Delete(k); err != nil {
			return err
		}
	}
	d.n -= int64(len(stale))
	d.forget()
	return wb.Flush()
}

func (d *diskStore) Len() int64 { return d.n }

// Bytes is what the store holds in memory: Badger's memtables, bounded by
// the options above, the recent level and Commit's scratch.
func (d *diskStore) Bytes() int64 {
	return 2*(4<<20) + d.recent.Bytes() + int64(cap(d.order))*24 + int64(cap(d.keys))
}

// forget empties the recent level.
func (d *diskStore) forget() {
	d.recent.Close()
	d.recent, d.depth = newMemStore(), -1
}

func (d *diskStore) Close() error {
	d.recent.Close()
	debug.SetGCPercent(d.gcPercent)
	return d.db.Close()
}
