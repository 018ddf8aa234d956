package runstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Store is an open run store, held by this process until Close.
type Store struct {
	dir  string
	db   *badger.DB
	lock *os.File
	// readOnly: opened with Options.ReadOnly (readonly.go).
	readOnly bool
}

// Options say how Open may use the store.
type Options struct {
	// Holder names this process to another that finds the store in use:
	// "mc sweep".
	Holder string
	// Wait is how long to wait for another process to release the store
	// before giving up with InUse.
	Wait time.Duration
	// Create makes the store if dir does not exist; without it, a missing
	// store is Missing.
	Create bool
	// ReadOnly opens the store to read it only, as on read-only media
	// (mc runs lists a store on a CD or a read-only mount): nothing in it
	// is written, made or removed (readonly.go), unless its last session
	// was killed and its directory can be written: it is then opened as
	// without ReadOnly, which recovers it. Create does not apply.
	ReadOnly bool
}

// Open opens the run store in dir, making it if asked. It refuses a
// directory that is not a run store of this Format, or that Badger finds
// damaged (Refused); a store another process holds for longer than
// opt.Wait (InUse); and a file system without room to open it safely
// (Unwritable).
func Open(dir string, opt Options) (*Store, error) {
	if opt.ReadOnly {
		return openReadOnly(dir, opt)
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !opt.Create:
		return nil, &Missing{Dir: dir}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, &Unwritable{Dir: dir, Err: err}
		}
	case err != nil:
		return nil, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	case !st.IsDir():
		return nil, &Refused{Dir: dir, Why: "is not a directory"}
	}
	if err := checkFormat(dir, false); err != nil {
		return nil, err
	}
	lk, err := lock(dir, opt.Holder, opt.Wait)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, lock: lk}
	if err := removeStaleTemps(dir); err != nil {
		lk.Close()
		return nil, &Unwritable{Dir: dir, Err: err}
	}
	if s.db, err = openBadger(dir); err != nil {
		lk.Close()
		return nil, err
	}
	return s, nil
}

// openBadger opens the store's Badger files, under the store's lock.
func openBadger(dir string) (*badger.DB, error) {
	if err := checkFormat(dir, true); err != nil {
		return nil, err
	}
	if err := checkRoom(dir, 0); err != nil {
		return nil, err
	}
	if err := checkClosed(dir); err != nil {
		return nil, err
	}
	db, err := badger.Open(badgerOptions(dir))
	if err != nil {
		return nil, damaged(dir, err)
	}
	return db, nil
}

// Dir is the store's directory, as Open was given it.
func (s *Store) Dir() string { return s.dir }

// Close writes what Badger holds in memory to its files, lists them for
// the next Open to check (closed.go), and releases the store.
func (s *Store) Close() error {
	err := s.db.Close()
	if s.readOnly {
		if s.lock != nil {
			s.lock.Close()
		}
		if err != nil {
			return &Refused{Dir: s.dir, Why: fmt.Sprintf("could not be closed: %v", err)}
		}
		return nil
	}
	if err == nil {
		err = writeClosed(s.dir)
	}
	s.lock.Close()
	if err != nil {
		return &Unwritable{Dir: s.dir, Err: err}
	}
	return nil
}

// Badger's sizes, chosen for a store of thousands of small records rather
// than Badger's defaults (64 MiB memtables, five of them, a 256 MiB block
// cache, 1 GiB value log files), which would make every mc command that
// opens the store allocate hundreds of MiB.
const (
	// memTableSize bounds the records held in memory before they are
	// written to a table; one transaction holds at most 15% of it.
	memTableSize = 4 << 20
	// valueThreshold: a value larger than this (a long trace) is kept in
	// the value log rather than in the table beside its key.
	valueThreshold = 64 << 10
	// valueLogFileSize is a value log file's size, and so the largest
	// value the store can hold.
	valueLogFileSize = 64 << 20
	// blockCacheSize holds decompressed table blocks: Badger compresses
	// tables only with a cache, and the records, JSON, shrink several
	// times.
	blockCacheSize = 4 << 20
)

func badgerOptions(dir string) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(nil).
		WithMemTableSize(memTableSize).
		WithNumMemtables(1).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithBaseTableSize(1 << 20).
		WithBaseLevelSize(4 << 20).
		WithValueThreshold(valueThreshold).
		WithValueLogFileSize(valueLogFileSize).
		WithBlockCacheSize(blockCacheSize).
		WithIndexCacheSize(0).
		WithCompression(options.Snappy).
		WithNumCompactors(2).
		WithNumGoroutines(1).
		WithMetricsEnabled(false).
		WithDetectConflicts(false). // one process, one writer at a time
		WithSyncWrites(true).
		WithChecksumVerificationMode(options.OnTableAndBlockRead).
		WithVerifyValueChecksum(true)
}

// damaged is the refusal of a store Badger cannot read: its first line,
// which names the file, stands for the whole.
func damaged(dir string, err error) error {
	why, _, _ := strings.Cut(err.Error(), "\n")
	const longest = 160
	if len(why) > longest {
		why = strings.ToValidUTF8(why[:longest], "") + "…"
	}
	return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged (Badger: %s)", why)}
}
