package runstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/y"
)

// heldRecords are the records a killed session's store will hold once
// Badger has opened it, as mc reads its files before (killed.go): those of
// the tables its MANIFEST lists and of its memtable logs, each key at its
// newest version, and the number the next check gets.
type heldRecords struct {
	versions  map[string]uint64
	nextCheck uint64
}

func newHeldRecords() *heldRecords { return &heldRecords{versions: map[string]uint64{}} }

// add holds record key (with its version) whose value, if it is stored
// beside its key (not a pointer into a value log), is value.
func (h *heldRecords) add(key []byte, meta byte, value []byte) {
	k, v := string(userKey(key)), version(key)
	h.versions[k] = max(h.versions[k], v)
	if k == string(nextCheck) && meta&bitValuePointer == 0 && len(value) == 8 {
		h.nextCheck = max(h.nextCheck, binary.BigEndian.Uint64(value))
	}
}

func (h *heldRecords) addTableRecord(key []byte, v y.ValueStruct) { h.add(key, v.Meta, v.Value) }

// readLogs reads the memtable logs and the newest value log in dir, which
// Badger replays and cuts at the first damaged entry, refusing the store
// if one is damaged (badgerlog.go), and holds the memtable logs' records.
// The older value logs Badger does not read on opening; their values are
// checked against their checksums whenever they are read.
func readLogs(dir string, held *heldRecords) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	newest, newestName := -1, ""
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, ".mem"):
			if info, err := e.Info(); err == nil && info.Size() == 0 {
				continue // holds nothing (removeEmptyLogs)
			}
			log, err := readLog(filepath.Join(dir, name))
			if err != nil {
				return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its memtable log %s %v", name, err)}
			}
			for _, e := range log.entries {
				held.add(e.key, e.meta, e.value)
			}
		case strings.HasSuffix(name, ".vlog"):
			if info, err := e.Info(); err == nil && info.Size() == 0 {
				continue // holds nothing (removeEmptyLogs)
			}
			if fid, err := strconv.Atoi(strings.TrimSuffix(name, ".vlog")); err == nil && fid > newest {
				newest, newestName = fid, name
			}
		}
	}
	if newest < 0 {
		return nil
	}
	if _, err := readLog(filepath.Join(dir, newestName)); err != nil {
		return &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its value log %s %v", newestName, err)}
	}
	return nil
}

// unheldRecords names the records of the table numbered id, which the
// MANIFEST does not list and Badger will so delete, that held lacks (at
// their version or a newer one): "" when it holds none. readable says
// whether the table could be read: one that cannot is one a killed session
// was still writing, or damaged.
func unheldRecords(dir string, id uint64, held *heldRecords) (lost string, readable bool) {
	var names []string
	err := readTable(dir, id, options.Snappy, func(key []byte, _ y.ValueStruct) {
		if held.versions[string(userKey(key))] < version(key) {
			names = append(names, describeKey(userKey(key)))
		}
	})
	switch {
	case err != nil:
		return "", false
	case len(names) == 0:
		return "", true
	case len(names) == 1:
		return names[0], true
	}
	return fmt.Sprintf("%d records (%s first)", len(names), names[0]), true
}

// describeKey names the record under key, a key of the store's
// (record.go).
func describeKey(key []byte) string {
	switch {
	case bytes.HasPrefix(key, checkPrefix) && len(key) == len(checkPrefix)+8:
		return fmt.Sprintf("check %d", binary.BigEndian.Uint64(key[len(checkPrefix):]))
	case bytes.HasPrefix(key, classPrefix):
		return "a sweep class"
	case bytes.Equal(key, nextCheck):
		return "the checks' numbering"
	}
	return fmt.Sprintf("the record %q", key)
}
