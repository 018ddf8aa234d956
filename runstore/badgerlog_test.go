package runstore

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// logBytes lays out a log file as Badger writes one (badgerlog.go): the
// header, then one transaction per key, its entry and its end, each key
// at version its index + 1; then zeros, as the file was made.
func logBytes(keys ...string) (data []byte, ends []int) {
	entry := func(meta byte, key []byte, value []byte) []byte {
		b := []byte{meta, 0}
		b = binary.AppendUvarint(b, uint64(len(key)))
		b = binary.AppendUvarint(b, uint64(len(value)))
		b = binary.AppendUvarint(b, 0)
		b = append(append(b, key...), value...)
		return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	}
	withVersion := func(k string, v uint64) []byte {
		return binary.BigEndian.AppendUint64([]byte(k), ^v)
	}
	data = make([]byte, logHeaderSize)
	for i, k := range keys {
		v := uint64(i + 1)
		data = append(data, entry(bitTxn, withVersion(k, v), []byte("value of "+k))...)
		data = append(data, entry(bitFinTxn, withVersion("!badger!txn", v), []byte(strconv.FormatUint(v, 10)))...)
		ends = append(ends, len(data))
	}
	return append(data, make([]byte, 4096)...), ends
}

// readLog keeps what Badger keeps of a log file, and refuses a file where
// Badger would drop a whole record: a byte flipped or bytes zeroed before
// the last record. What a kill leaves at the end (an unfinished
// transaction, an entry partly written, in whatever order its bytes were
// copied) is no damage: Badger drops it, and it was never recorded.
func TestReadLogTellsAKilledWritersEndFromDamage(t *testing.T) {
	keys := []string{"check/1", "meta/next-check", "class/a", "check/2"}
	whole, ends := logBytes(keys...)
	for _, c := range []struct {
		name   string
		edit   func(b []byte) []byte
		kept   int // transactions kept, or -1: refused
		damage string
	}{
		{"whole", func(b []byte) []byte { return b }, 4, ""},
		{"the last transaction's end not written", func(b []byte) []byte { clear(b[ends[2]+20 : ends[3]]); return b }, 3, ""},
		{"the last entry cut short by the kill", func(b []byte) []byte { clear(b[ends[3]-5 : ends[3]]); return b }, 3, ""},
		{"the file cut after its third transaction", func(b []byte) []byte { return b[:ends[2]] }, 3, ""},
		{"a byte flipped in the first record", func(b []byte) []byte { b[logHeaderSize+14] ^= 1; return b }, -1, "is damaged at byte 20"},
		{"the second transaction zeroed", func(b []byte) []byte { clear(b[ends[0]:ends[1]]); return b }, -1, "a whole one follows"},
		{"the last transaction's end written out of order, its middle not", func(b []byte) []byte { clear(b[ends[3]-20 : ends[3]-6]); return b }, 3, ""},
		{"a byte flipped in the last transaction's record", func(b []byte) []byte { b[ends[3]-30] ^= 1; return b }, -1, "a whole one follows"},
		{"an encrypted header", func(b []byte) []byte { b[3] = 1; return b }, -1, "encrypted"},
		{"shorter than its header", func(b []byte) []byte { return b[:10] }, -1, "shorter than its header"},
	} {
		path := filepath.Join(t.TempDir(), "00001.mem")
		if err := os.WriteFile(path, c.edit(append([]byte(nil), whole...)), 0o644); err != nil {
			t.Fatal(err)
		}
		log, err := readLog(path)
		switch {
		case c.kept < 0 && (err == nil || !strings.Contains(err.Error(), c.damage)):
			t.Errorf("%s: readLog gave %v, want %q", c.name, err, c.damage)
		case c.kept >= 0 && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.kept >= 0 && len(log.entries) != c.kept:
			t.Errorf("%s: %d records kept, want %d", c.name, len(log.entries), c.kept)
		case c.kept > 0 && string(userKey(log.entries[c.kept-1].key)) != keys[c.kept-1]:
			t.Errorf("%s: the last record kept is %q", c.name, log.entries[c.kept-1].key)
		}
	}
}
