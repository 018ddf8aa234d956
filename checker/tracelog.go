package checker

import (
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/model"
)

// traceLog is the append-only log of origins: entry i says how state i
// was first reached. On disk (file not nil) it is a file of 8-byte entries,
// the parent then the action, little-endian, written through a buffer and
// read back only to rebuild traces; the sum of the entries written is
// recorded by each checkpoint and checked on resume, so that a missing,
// short or corrupted log is refused instead of yielding parents that
// loop.
//
// In memory the entries are packed, mostly in 1 byte where a plain origin
// takes 8. States are committed in frontier order, so parents never
// decrease and a parent mostly differs from the entry before's by less
// than shortSteps; an action is numbered densely, rule + rules·(process +
// procs·choice), below shortActions on small rings. Such an entry is the
// one byte action·shortSteps + difference; any other is the byte
// longEntry, then the signed varint of the difference and the varint of
// the action. The bytes lie
// in blocks that never move; every group of groupSize entries starts at a
// recorded place, with the parent before it, so finding an entry decodes at
// most groupSize of them.
type traceLog struct {
	blocks [][]byte
	groups []logGroup
	// last is the parent of the latest entry, -1 for an initial state.
	last  int64
	rules uint64
	procs uint64
	n     int
	file  *os.File
	// path is the file of a log on disk that a resume reopens (recover).
	path string
	// buf holds the entries from flushed on, not yet written; sum is that
	// of the entries written; err is the first write error, which sticks.
	buf     []byte
	flushed int
	sum     *xxhash.Digest
	err     error
}

type logGroup struct {
	block, off uint32
	last       int64
}

const (
	logBlock  = 1 << 18
	groupSize = 64
	// maxEntry bounds an entry's bytes: longEntry and two varints of at
	// most 64 bits.
	maxEntry = 1 + 2*binary.MaxVarintLen64
	// longEntry starts an entry that is not one byte; the one-byte entries
	// are below it.
	longEntry    = 0xff
	shortSteps   = 4
	shortActions = longEntry / shortSteps
)

// newTraceLog returns an empty log in memory for a system with rules rules
// and procs processes.
func newTraceLog(rules, procs int) *traceLog {
	return &traceLog{last: -1, rules: uint64(max(rules, 1)), procs: uint64(max(procs, 1))}
}

// createTraceLog returns an empty log kept in the new file path.
func createTraceLog(path string) (*traceLog, error) {
	f, err := diskio.Create(path)
	if err != nil {
		return nil, err
	}
	return &traceLog{file: f, buf: make([]byte, 0, diskio.Buffer), sum: xxhash.New()}, nil
}

// reopenTraceLog returns the log kept in the file path, for a resume, which
// opens it once the checkpoint's section says how many entries it needs
// (recover).
func reopenTraceLog(path string) *traceLog { return &traceLog{path: path} }

// openTraceLog returns the log kept in the file path, as a checkpoint of n
// entries summing to sum left it: its first n entries must be those
// written, and any later ones are dropped. A missing, short or corrupted
// file is refused; the log is never extended.
func openTraceLog(path string, n int, sum uint64) (*traceLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	t := &traceLog{n: n, flushed: n, file: f, buf: make([]byte, 0, diskio.Buffer), sum: xxhash.New()}
	if err := t.verify(path, sum); err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// verify checks that the file holds at least the log's entries and that
// they sum to want, and drops the entries after them.
func (t *traceLog) verify(path string, want uint64) error {
	st, err := t.file.Stat()
	if err != nil {
		return err
	}
	size := int64(t.n) * 8
	if st.Size() < size {
		return fmt.Errorf("trace log %s holds %d entries; the checkpoint needs %d", path, st.Size()/8, t.n)
	}
	if _, err := io.Copy(t.sum, io.NewSectionReader(t.file, 0, size)); err != nil {
		return fmt.Errorf("trace log %s: %w", path, err)
	}
	if err := diskio.CheckSum("trace log "+path, t.sum.Sum64(), want); err != nil {
		return err
	}
	return t.file.Truncate(size)
}

// add appends o as the next state's origin and returns that state's index.
// Only a log on disk fails, when it cannot write.
func (t *traceLog) add(o origin) (uint32, error) {
	if t.file != nil {
		t.buf = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(t.buf, o.parent), o.action)
		t.n++
		if len(t.buf) >= diskio.Buffer {
			return uint32(t.n - 1), t.flush()
		}
		return uint32(t.n - 1), nil
	}
	if t.n%groupSize == 0 {
		if len(t.blocks) == 0 || logBlock-len(t.blocks[len(t.blocks)-1]) < groupSize*maxEntry {
			t.blocks = append(t.blocks, make([]byte, 0, logBlock))
		}
		t.groups = append(t.groups, logGroup{block: uint32(len(t.blocks) - 1), off: uint32(len(t.blocks[len(t.blocks)-1])), last: t.last})
	}
	parent, action := int64(-1), uint64(o.action)
	if o.parent != noParent {
		a := packed.Unpack(o.action)
		parent, action = int64(o.parent), uint64(a.Rule)+t.rules*(uint64(a.Proc)+t.procs*uint64(a.Choice))
	}
	b := &t.blocks[len(t.blocks)-1]
	if d := parent - t.last; d >= 0 && d < shortSteps && action < shortActions {
		*b = append(*b, byte(action*shortSteps+uint64(d)))
	} else {
		*b = binary.AppendUvarint(binary.AppendVarint(append(*b, longEntry), d), action)
	}
	t.last = parent
	t.n++
	return uint32(t.n - 1), nil
}

// decode reads the entry at the start of b, which follows one with parent
// last, and returns it with its parent and the bytes after it.
func (t *traceLog) decode(b []byte, last int64) (origin, int64, []byte) {
	var d int64
	var action uint64
	if b[0] != longEntry {
		d, action, b = int64(b[0]%shortSteps), uint64(b[0]/shortSteps), b[1:]
	} else {
		var k int
		d, k = binary.Varint(b[1:])
		b = b[1+k:]
		action, k = binary.Uvarint(b)
		b = b[k:]
	}
	parent := last + d
	if parent < 0 {
		return origin{parent: noParent, action: uint32(action)}, parent, b
	}
	rule := action % t.rules
	action /= t.rules
	a := model.Action{Rule: int(rule), Proc: int(action % t.procs), Choice: int(action / t.procs)}
	return origin{parent: uint32(parent), action: packed.Action(a)}, parent, b
}

// at is the origin of state id.
func (t *traceLog) at(id uint32) (origin, error) {
	if int(id) >= t.n {
		return origin{}, fmt.Errorf("trace log: no state %d; it holds %d", id, t.n)
	}
	if t.file == nil {
		g := t.groups[id/groupSize]
		b, last := t.blocks[g.block][g.off:], g.last
		var l origin
		for k := uint32(0); k <= id%groupSize; k++ {
			l, last, b = t.decode(b, last)
		}
		return l, nil
	}
	var b []byte
	if int(id) >= t.flushed { // still in the buffer, which a write error keeps
		b = t.buf[(int(id)-t.flushed)*8:]
	} else {
		b = make([]byte, 8)
		if _, err := t.file.ReadAt(b, int64(id)*8); err != nil {
			return origin{}, fmt.Errorf("trace log: %w", err)
		}
	}
	return origin{parent: binary.LittleEndian.Uint32(b[:4]), action: binary.LittleEndian.Uint32(b[4:])}, nil
}

// all yields the origins of a log in memory, in order.
func (t *traceLog) all() iter.Seq[origin] {
	return func(yield func(origin) bool) {
		for id, g := range t.groups {
			b, last := t.blocks[g.block][g.off:], g.last
			for k := 0; k < groupSize && id*groupSize+k < t.n; k++ {
				var l origin
				l, last, b = t.decode(b, last)
				if !yield(l) {
					return
				}
			}
		}
	}
}

// flush writes buffered entries to the file.
func (t *traceLog) flush() error {
	if t.file == nil || t.err != nil || len(t.buf) == 0 {
		return t.err
	}
	if _, err := t.file.WriteAt(t.buf, int64(t.flushed)*8); err != nil {
		t.err = fmt.Errorf("trace log: %w", err)
		return t.err
	}
	t.sum.Write(t.buf)
	t.flushed += len(t.buf) / 8
	t.buf = t.buf[:0]
	return nil
}

func (t *traceLog) len() int { return t.n }

// fileBytes is the size of the log's file; 0 in memory.
func (t *traceLog) fileBytes() int64 {
	if t.file == nil {
		return 0
	}
	return int64(t.n) * 8
}

// checkpoint writes the log's section of a checkpoint: the number of
// entries, then, in memory, each entry's parent and action, 4 bytes each,
// little-endian; on disk, where sync has made them durable, the sum of the
// entries.
func (t *traceLog) checkpoint(w *diskio.SectionWriter) {
	w.Uint(uint64(t.n))
	if t.file != nil {
		w.Uint64(t.checksum())
		return
	}
	for o := range t.all() {
		w.Uint32(o.parent)
		w.Uint32(o.action)
	}
}

// recover restores an empty log from its section of a checkpoint and
// returns its number of entries: in memory, from the entries themselves; a
// log reopened on disk opens its file, whose first entries must sum to
// what the section says (openTraceLog).
func (t *traceLog) recover(r *diskio.Section) (int, error) {
	n := int(r.Uint())
	if t.path == "" {
		for i := 0; i < n && r.Err() == nil; i++ {
			o := origin{parent: r.Uint32(), action: r.Uint32()}
			if r.Err() == nil {
				t.add(o) // in memory: no error
			}
		}
		return n, nil
	}
	sum := r.Uint64()
	if r.Err() != nil {
		return 0, &diskio.BadSection{Why: "truncated or overlong sections"}
	}
	opened, err := openTraceLog(t.path, n, sum)
	if err != nil {
		return 0, err
	}
	*t = *opened
	return n, nil
}

// bytes is the log's size in memory.
func (t *traceLog) bytes() int64 {
	if t.file != nil {
		return int64(cap(t.buf))
	}
	return int64(len(t.blocks))*logBlock + int64(cap(t.groups))*16
}

// sync flushes the log and, on disk, makes it durable; checksum is then the
// sum of its entries.
func (t *traceLog) sync() error {
	if err := t.flush(); err != nil || t.file == nil {
		return err
	}
	if err := t.file.Sync(); err != nil {
		return fmt.Errorf("trace log: %w", err)
	}
	return nil
}

// checksum is the sum of the entries written to the file.
func (t *traceLog) checksum() uint64 { return t.sum.Sum64() }

// close closes the file without writing what is buffered: a checkpoint
// synced every entry it needs, and nothing else reads the file later.
func (t *traceLog) close() error {
	if t.file == nil {
		return nil
	}
	return t.file.Close()
}
