package checker

import (
	"encoding/binary"
	"errors"
	"fmt"
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
// built or of the one before, so the fingerprints of those two levels are
// also kept in memory (recent): Seen answers from them during expansion,
// and Commit asks Badger only about the rest. That memory is bounded by the
// size of two levels, not of the state space.
type diskStore struct {
	db *badger.DB
	n  int64
	// recent[0] holds the fingerprints of level depth, recent[1] those of
	// level depth-1.
	recent [2]*memStore
	depth  int
	// scratch for Commit
	order []candRef
}

// candRef names candidate i of batch b by its fingerprint.
type candRef struct {
	fp   uint64
	b, i int
}

// openDiskStore opens (or creates) the store in dir with small memory
// budgets: memtables and caches of a few MiB.
func openDiskStore(dir string) (*diskStore, error) {
	opts := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithSyncWrites(false).
		WithDetectConflicts(false).
		WithCompression(options.None).
		WithMemTableSize(8 << 20).
		WithNumMemtables(2).
		WithBaseTableSize(4 << 20).
		WithNumLevelZeroTables(4).
		WithNumLevelZeroTablesStall(8).
		WithBlockCacheSize(4 << 20).
		WithIndexCacheSize(4 << 20).
		WithValueLogFileSize(64 << 20).
		WithNumCompactors(2)
	db, err := badger.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("opening the disk store in %s: %v", dir, err)
	}
	d := &diskStore{db: db, recent: [2]*memStore{newMemStore(), newMemStore()}, depth: -1}
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			d.n++
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return d, nil
}

func (d *diskStore) Seen(fp uint64, _ []byte) bool {
	return d.recent[0].Seen(fp, nil) || d.recent[1].Seen(fp, nil)
}

func (d *diskStore) SeenAll(b *batch, seen []bool) []bool {
	seen = seen[:0]
	for _, fp := range b.fps {
		seen = append(seen, d.Seen(fp, nil))
	}
	return seen
}

func key(fp uint64) []byte { return binary.BigEndian.AppendUint64(nil, fp) }

func (d *diskStore) Commit(batches []*batch, depth, _ int) error {
	if depth != d.depth {
		d.recent[1].Close()
		d.recent[0], d.recent[1] = newMemStore(), d.recent[0]
		d.depth = depth
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
	wb := d.db.NewWriteBatch()
	defer wb.Cancel()
	val := binary.AppendUvarint(nil, uint64(depth))
	err := d.db.View(func(txn *badger.Txn) error {
		for k, c := range d.order {
			if k > 0 && d.order[k-1].fp == c.fp {
				continue
			}
			_, err := txn.Get(key(c.fp))
			if err == nil {
				continue
			}
			if !errors.Is(err, badger.ErrKeyNotFound) {
				return err
			}
			if err := wb.Set(key(c.fp), val); err != nil {
				return err
			}
			batches[c.b].fresh[c.i] = true
			d.n++
			fp := c.fp
			if fp == 0 {
				fp = 1
			}
			d.recent[0].shards[shardOf(fp)].insert(fp)
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

// Bytes is what the store holds in memory: Badger's memtables and caches,
// bounded by the options above, the two recent levels and Commit's scratch.
func (d *diskStore) Bytes() int64 {
	return 2*(8<<20) + 8<<20 + d.recent[0].Bytes() + d.recent[1].Bytes() + int64(cap(d.order))*24
}

// forget empties the recent levels.
func (d *diskStore) forget() {
	d.recent[0].Close()
	d.recent[1].Close()
	d.recent, d.depth = [2]*memStore{newMemStore(), newMemStore()}, -1
}

func (d *diskStore) Close() error {
	d.recent[0].Close()
	d.recent[1].Close()
	return d.db.Close()
}
