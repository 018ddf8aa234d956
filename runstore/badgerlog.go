package runstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
)

// Badger replays two kinds of log file when it opens a store whose last
// session was killed: each memtable's write-ahead log (*.mem), which holds
// the records not yet in a table, and the newest value log (*.vlog), which
// holds the values too long to sit beside their keys. It reads each up to
// the first entry that fails its checksum, or to a transaction that does
// not end, and cuts the file there: every record after a damaged byte is
// dropped, silently. readLog reads such a file as Badger does, before
// Badger does, and tells the end a killed writer leaves (an unfinished
// transaction, at most one entry partly written, amid the zeros the file
// was made with) from damage, after which it finds a whole entry.
//
// The layout is Badger v4's (its memtable.go, value.go and structs.go): a
// header of logHeaderSize bytes (the encryption key's id, 0 as mc never
// encrypts, and an IV), then entries: meta and user meta bytes, the key's
// length, the value's length and the expiry as uvarints, the key (ending
// in its version), the value, and a big-endian CRC-32C of all before it.
const (
	logHeaderSize = 20
	// maxEntryHeader is the longest an entry's header can be: two bytes
	// and three uvarints.
	maxEntryHeader = 2 + 2*binary.MaxVarintLen32 + binary.MaxVarintLen64
	// maxKeyLength is the longest key Badger reads back.
	maxKeyLength = 1 << 16
	// The entry's meta bits readLog needs (Badger's value.go).
	bitValuePointer byte = 1 << 1
	bitTxn          byte = 1 << 6
	bitFinTxn       byte = 1 << 7
)

// ourKeyPrefixes are how every key of a run store starts: mc's records
// (record.go) and Badger's own ("!badger!txn" ends a transaction). A
// search for whole entries after damage looks only at entries so keyed.
var ourKeyPrefixes = [][]byte{classPrefix, checkPrefix, []byte("meta/"), []byte("!badger!")}

// logEntry is one entry of a log file.
type logEntry struct {
	meta       byte
	key, value []byte
	size       int64
}

// version is the version a key ends with (Badger's y.ParseTs).
func version(key []byte) uint64 {
	if len(key) < 8 {
		return 0
	}
	return ^binary.BigEndian.Uint64(key[len(key)-8:])
}

// userKey is key without its version (Badger's y.ParseKey).
func userKey(key []byte) []byte {
	if len(key) < 8 {
		return nil
	}
	return key[:len(key)-8]
}

// decodeEntry decodes the entry that b starts with, checking its CRC;
// false when b holds none.
func decodeEntry(b []byte) (logEntry, bool) {
	if len(b) < 2 {
		return logEntry{}, false
	}
	e := logEntry{meta: b[0]}
	at := 2
	var lens [3]uint64
	for i := range lens {
		v, n := binary.Uvarint(b[at:])
		if n <= 0 {
			return logEntry{}, false
		}
		lens[i], at = v, at+n
	}
	klen, vlen := lens[0], lens[1]
	if klen > maxKeyLength || vlen > uint64(len(b)) || uint64(at)+klen+vlen+crc32.Size > uint64(len(b)) {
		return logEntry{}, false
	}
	end := at + int(klen) + int(vlen)
	if crc32.Checksum(b[:end], castagnoli) != binary.BigEndian.Uint32(b[end:]) {
		return logEntry{}, false
	}
	e.key, e.value, e.size = b[at:at+int(klen)], b[at+int(klen):end], int64(end+crc32.Size)
	return e, true
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// entryExtent is how long the entry that b starts with says it is, from
// its header alone, or 0 when its header cannot be read.
func entryExtent(b []byte) int64 {
	if len(b) < 2 {
		return 0
	}
	at := 2
	var lens [3]uint64
	for i := range lens {
		v, n := binary.Uvarint(b[at:])
		if n <= 0 {
			return 0
		}
		lens[i], at = v, at+n
	}
	if lens[0] > maxKeyLength || lens[1] > 1<<40 {
		return 0
	}
	return int64(at) + int64(lens[0]) + int64(lens[1]) + crc32.Size
}

// logFile is a log file read as Badger replays it: the entries of every
// transaction it will keep, in order.
type logFile struct {
	entries []logEntry
}

// readLog reads the log file at path; its error says where the file is
// damaged, in a phrase that follows the file's name.
func readLog(path string) (*logFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	head := make([]byte, logHeaderSize)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, fmt.Errorf("is shorter than its header (%d bytes)", size)
	}
	if binary.BigEndian.Uint64(head) != 0 {
		return nil, errors.New("says its entries are encrypted, and mc never encrypts: its header is damaged")
	}
	out := &logFile{}
	var txn []logEntry
	var txnVersion uint64
	off := int64(logHeaderSize)
walk:
	for {
		e, ok, err := entryAt(f, off, size)
		if err != nil {
			return nil, err
		}
		if !ok || len(e.key) == 0 {
			break
		}
		switch {
		case e.meta&bitTxn != 0:
			v := version(e.key)
			if len(txn) > 0 && v != txnVersion {
				break walk
			}
			txn, txnVersion = append(txn, e), v
		case e.meta&bitFinTxn != 0:
			v, err := strconv.ParseUint(string(e.value), 10, 64)
			if err != nil || len(txn) == 0 || v != txnVersion {
				break walk
			}
			out.entries, txn = append(out.entries, txn...), nil
		default:
			if len(txn) > 0 {
				break walk
			}
			out.entries = append(out.entries, e)
		}
		off += e.size
	}
	if err := checkTail(f, off, size); err != nil {
		return nil, err
	}
	return out, nil
}

// entryAt reads the entry at off of f, which is size bytes long.
func entryAt(f io.ReaderAt, off, size int64) (logEntry, bool, error) {
	head := make([]byte, min(maxEntryHeader, max(size-off, 0)))
	if _, err := f.ReadAt(head, off); err != nil && !errors.Is(err, io.EOF) {
		return logEntry{}, false, err
	}
	n := entryExtent(head)
	if n == 0 || n > size-off {
		return logEntry{}, false, nil
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return logEntry{}, false, err
	}
	e, ok := decodeEntry(b)
	return e, ok, nil
}

// checkTail checks what follows the last entry Badger keeps, from off:
// what a killed writer leaves there is at most one entry partly written
// (a copy cut short, whose bytes need not have been written in order),
// amid the zeros the file was made with. A whole entry there is a record
// Badger would drop: damage. An entry damaged at the very end is not told
// from one a kill cut short; if it held a check, the store's count of its
// checks tells (recorded.go).
func checkTail(f io.ReaderAt, off, size int64) error {
	end, err := lastNonZero(f, off, size)
	if err != nil || end <= off {
		return err
	}
	rest := make([]byte, end-off)
	if _, err := f.ReadAt(rest, off); err != nil {
		return err
	}
	if _, ok := decodeEntry(rest); ok {
		return fmt.Errorf("is damaged at byte %d: Badger would drop the records from there on, whole ones among them", off)
	}
	for at := 1; at < len(rest); at++ {
		if !hasOurKeyAt(rest[at:]) {
			continue
		}
		if _, ok := decodeEntry(rest[at:]); ok {
			return fmt.Errorf("is damaged at byte %d: Badger would drop the records from there on, and a whole one follows at byte %d", off, off+int64(at))
		}
	}
	return nil
}

// hasOurKeyAt says whether b starts with an entry header whose key starts
// as a run store's keys do.
func hasOurKeyAt(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	at := 2
	klen, n := binary.Uvarint(b[at:])
	if n <= 0 || klen > maxKeyLength {
		return false
	}
	at += n
	for range 2 {
		if _, n := binary.Uvarint(b[at:]); n <= 0 {
			return false
		} else {
			at += n
		}
	}
	key := b[at:]
	for _, p := range ourKeyPrefixes {
		if bytes.HasPrefix(key, p) && klen >= uint64(len(p)) {
			return true
		}
	}
	return false
}

// lastNonZero is one past the last byte of f after off, of size bytes,
// that is not zero (off when there is none), read from the end in chunks:
// a log file is mostly the zeros it was made with.
func lastNonZero(f io.ReaderAt, off, size int64) (int64, error) {
	buf, zeros := make([]byte, 64<<10), make([]byte, 64<<10)
	for end := size; end > off; {
		start := max(off, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if bytes.Equal(chunk, zeros[:len(chunk)]) {
			end = start
			continue
		}
		for i := len(chunk) - 1; i >= 0; i-- {
			if chunk[i] != 0 {
				return start + int64(i) + 1, nil
			}
		}
		end = start
	}
	return off, nil
}
