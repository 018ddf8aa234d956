package runstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/badger/v4/y"
	"github.com/dgraph-io/ristretto/v2/z"
)

// A store whose last session was killed has no closedFile to compare its
// files with, and Badger, opening it, does two things a damaged store must
// not meet: it opens each table in a goroutine of its own, where a table
// whose blocks or index were damaged makes it panic (its checksum check
// dereferences the block it failed to read), which kills mc; and it
// deletes every table its MANIFEST does not list, so that a lost or cut
// MANIFEST empties the store, and the next check is numbered 1 again. So
// before Badger opens such a store, checkKilled reads the MANIFEST and
// every table itself, in this goroutine, recovering from Badger's panics,
// and refuses the store, naming the file, unless the MANIFEST is whole and
// every table it lists is there and passes its checksums.
//
// The table files it lets Badger delete are what a killed session was
// still writing or had just compacted away: tables the MANIFEST does not
// list, each of whose records a listed table or a memtable log holds too,
// at its version or a newer one (held.go): the records of a memtable
// being flushed are still in its log, those of a compaction's output
// still in its inputs, and those of a compaction's inputs, which Badger
// removes once the MANIFEST lists the output, in the output. An unlisted
// table holding a record held nowhere else is one whose record the
// MANIFEST lost (a MANIFEST cut exactly at the end of a record reads as an
// older whole one), and is refused; so is one that cannot be read,
// numbered before a listed one (tables are numbered as they are made, and
// one being written is numbered after those listed). So is damage in a
// memtable log or the newest value log, which Badger would cut at the
// damaged entry, dropping the rest (badgerlog.go); and a store whose files
// hold fewer checks than mc recorded it to hold (recorded.go), which is
// how a log cut short, or a cut MANIFEST whose lost table's records no
// file holds any more, shows. (A record GC deleted and a compaction then
// dropped is held nowhere: a store killed just after that compaction is
// refused, though it lost nothing.)
//
// An empty memtable or value log is removed: Badger empties a memtable's
// log once its records are in a table the MANIFEST lists, then removes
// it, and creates a log before it sizes the file and writes its header;
// a session killed in between leaves a file that holds nothing (not a
// byte) and that Badger refuses to open ("Create a new file").

// checkKilled checks the store in dir, whose last session did not close
// it, before Badger opens it; readOnly leaves the empty logs
// where they are (Badger opening a store read-only writes nothing, and
// refuses such a log: the store is then refused as damaged).
func checkKilled(dir string, readOnly bool) error {
	if !readOnly {
		if err := removeEmptyLogs(dir); err != nil {
			return &Unwritable{Dir: dir, Err: err}
		}
	}
	tables, data, err := badgerFiles(dir)
	if err != nil {
		return &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	mf, err := readManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !data:
		return nil // a store made and never written to
	case errors.Is(err, fs.ErrNotExist):
		return &Refused{Dir: dir, Why: "is damaged: its file MANIFEST, which lists its tables, is missing"}
	case err != nil:
		return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file MANIFEST %v", err)}
	}
	if err := checkKeyRegistry(dir); err != nil {
		return err
	}
	held := newHeldRecords()
	var last uint64
	for _, id := range slices.Sorted(maps.Keys(mf.Tables)) {
		tm := mf.Tables[id]
		last = id
		name := table.IDToFilename(id)
		if !slices.Contains(tables, id) {
			return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its table %s, which its MANIFEST lists, is missing", name)}
		}
		if tm.KeyID != 0 {
			return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its MANIFEST says the table %s is encrypted, and mc never encrypts", name)}
		}
		if err := readTable(dir, id, tm.Compression, held.addTableRecord); err != nil {
			return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its table %s fails its checks (%s)", name, err)}
		}
	}
	if err := readLogs(dir, held); err != nil {
		return err
	}
	for _, id := range tables {
		if _, listed := mf.Tables[id]; listed {
			continue
		}
		name := table.IDToFilename(id)
		lost, readable := unheldRecords(dir, id, held)
		switch {
		case lost != "":
			return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its table %s, which its MANIFEST does not list, holds %s, which no listed table or memtable log holds: its MANIFEST lost records", name, lost)}
		case !readable && id < last:
			return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its table %s is not listed in its MANIFEST, which may have lost records, and cannot be read", name)}
		}
	}
	recorded, err := readRecorded(dir)
	if err != nil {
		return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file %s %v", recordedFile, err)}
	}
	if held.nextCheck < recorded {
		return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: it was recorded to hold %d checks, and its files hold %d: records were lost (a file cut short, or a MANIFEST cut where a record ends)", recorded-1, max(held.nextCheck, 1)-1)}
	}
	return nil
}

// checkKeyRegistry checks Badger's KEYREGISTRY, if there is one: as mc
// never encrypts, it is an IV and Badger's sanity text, unencrypted
// (Badger's key_registry.go); Badger refuses anything else without naming
// the file ("Encryption key mismatch").
func checkKeyRegistry(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, badger.KeyRegistryFileName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	case len(data) != 16+len(unencryptedSanity) || !bytes.Equal(data[16:], unencryptedSanity):
		return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file %s is not the key registry of an unencrypted store", badger.KeyRegistryFileName)}
	}
	return nil
}

// unencryptedSanity is the text Badger's key registry ends with when
// nothing is encrypted.
var unencryptedSanity = []byte("Hello Badger")

// badgerFiles lists the table files in dir by number, and says whether dir
// holds any of Badger's data: tables, value logs or memtable logs.
func badgerFiles(dir string) (tables []uint64, data bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, err
	}
	for _, e := range entries {
		name := e.Name()
		if id, ok := table.ParseFileID(name); ok && strings.HasSuffix(name, ".sst") {
			tables = append(tables, id)
		}
		if strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".vlog") || strings.HasSuffix(name, ".mem") {
			data = true
		}
	}
	return tables, data, nil
}

// removeEmptyLogs removes the memtable and value logs (*.mem, *.vlog) in
// dir that hold nothing: not a byte, not even their header.
func removeEmptyLogs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !isLog(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		if st, err := e.Info(); err == nil && st.Size() == 0 {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// isLog says whether name is one of Badger's logs: a memtable's
// write-ahead log or a value log.
func isLog(name string) bool {
	return strings.HasSuffix(name, ".mem") || strings.HasSuffix(name, ".vlog")
}

// readManifest reads the store's MANIFEST, refusing one whose last record
// is cut short: Badger would drop that record and delete what it made.
func readManifest(dir string) (mf badger.Manifest, err error) {
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if err != nil {
		return mf, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return mf, err
	}
	defer recoverAsDamage(&err)
	mf, end, err := badger.ReplayManifestFile(f, badgerOptions(dir).ExternalMagicVersion, badgerOptions(dir))
	switch {
	case err != nil:
		return mf, fmt.Errorf("cannot be read (Badger: %s)", firstLine(err))
	case end != st.Size():
		return mf, fmt.Errorf("ends with a record cut short, at byte %d of %d", end, st.Size())
	}
	return mf, nil
}

// readTable reads the table numbered id whole and checks its index and
// every block against their checksums, from a copy in memory: a table
// mapped from a file that something cuts meanwhile would kill mc with
// SIGBUS, where a copy gives a panic, recovered as damage. visit, if not
// nil, gets each record's key (with its version) and value.
func readTable(dir string, id uint64, compression options.CompressionType, visit func(key []byte, v y.ValueStruct)) (err error) {
	path := table.NewFilename(id, dir)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	defer recoverAsDamage(&err)
	opt := badgerOptions(dir)
	// The table holds nothing beyond data and f: it needs no closing (and
	// must not be released: Badger removes a table's file then).
	t, err := table.OpenTable(&z.MmapFile{Data: data, Fd: f}, table.Options{
		ReadOnly:    true,
		BlockSize:   opt.BlockSize,
		ChkMode:     options.OnTableRead,
		Compression: compression,
	})
	if err != nil {
		return errors.New(firstLine(err))
	}
	if visit == nil {
		return nil
	}
	it := t.NewIterator(0)
	for it.Rewind(); it.Valid(); it.Next() {
		visit(it.Key(), it.Value())
	}
	return it.Close()
}

// recoverAsDamage turns a panic in Badger's reading of damaged bytes into
// the error *err.
func recoverAsDamage(err *error) {
	if r := recover(); r != nil {
		*err = errors.New("Badger cannot read it")
	}
}

func firstLine(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}
