package checker

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"iter"
	"os"

	"mc/model"
)

// traceLog is the append-only log of trace links: entry i says how state i
// was first reached. On disk (file not nil) it is a file of 8-byte entries
// written through a buffer, read back only to rebuild traces.
//
// In memory the entries are packed, about 2 bytes each where a plain link
// takes 8: the parent as the signed varint of its difference from the entry
// before's (states are committed in frontier order, so parents never
// decrease and the difference is mostly 0 or 1), then the action as the
// varint of its dense number, rule + rules·(process + procs·choice), which
// is below 128 on rings of up to 63 processes with two rules. The bytes lie
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
	w     *bufio.Writer
}

// logGroup is where a group of entries starts: block and offset of its first
// byte, and the parent of the entry before it.
type logGroup struct {
	block, off uint32
	last       int64
}

const (
	logBlock  = 1 << 18
	groupSize = 64
	// maxEntry bounds an entry's bytes: two varints of at most 64 bits.
	maxEntry = 2 * binary.MaxVarintLen64
)

// newTraceLog returns an empty log in memory for a system with rules rules
// and procs processes.
func newTraceLog(rules, procs int) *traceLog {
	return &traceLog{last: -1, rules: uint64(max(rules, 1)), procs: uint64(max(procs, 1))}
}

// openTraceLog returns a log kept in the file path, keeping its first n
// entries (those of a checkpoint) and dropping any later ones.
func openTraceLog(path string, n int) (*traceLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(int64(n) * 8); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(int64(n)*8, 0); err != nil {
		f.Close()
		return nil, err
	}
	return &traceLog{n: n, file: f, w: bufio.NewWriterSize(f, spillBuffer)}, nil
}

// add appends l as the next state's link and returns that state's index.
func (t *traceLog) add(l link) uint32 {
	if t.file != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], l.parent)
		binary.LittleEndian.PutUint32(b[4:], l.action)
		t.w.Write(b[:]) // a write error sticks in the buffer; flush reports it
		t.n++
		return uint32(t.n - 1)
	}
	if t.n%groupSize == 0 {
		if len(t.blocks) == 0 || logBlock-len(t.blocks[len(t.blocks)-1]) < groupSize*maxEntry {
			t.blocks = append(t.blocks, make([]byte, 0, logBlock))
		}
		t.groups = append(t.groups, logGroup{block: uint32(len(t.blocks) - 1), off: uint32(len(t.blocks[len(t.blocks)-1])), last: t.last})
	}
	parent, action := int64(-1), uint64(l.action)
	if l.parent != noParent {
		a := unpack(l.action)
		parent, action = int64(l.parent), uint64(a.Rule)+t.rules*(uint64(a.Proc)+t.procs*uint64(a.Choice))
	}
	b := &t.blocks[len(t.blocks)-1]
	*b = binary.AppendUvarint(binary.AppendVarint(*b, parent-t.last), action)
	t.last = parent
	t.n++
	return uint32(t.n - 1)
}

// decode reads the entry at the start of b, which follows one with parent
// last, and returns it with its parent and the bytes after it.
func (t *traceLog) decode(b []byte, last int64) (link, int64, []byte) {
	d, k := binary.Varint(b)
	b = b[k:]
	action, k := binary.Uvarint(b)
	b = b[k:]
	parent := last + d
	if parent < 0 {
		return link{parent: noParent, action: uint32(action)}, parent, b
	}
	rule := action % t.rules
	action /= t.rules
	a := model.Action{Rule: int(rule), Proc: int(action % t.procs), Choice: int(action / t.procs)}
	return link{parent: uint32(parent), action: pack(a)}, parent, b
}

// at is the link of state id.
func (t *traceLog) at(id uint32) (link, error) {
	if t.file == nil {
		g := t.groups[id/groupSize]
		b, last := t.blocks[g.block][g.off:], g.last
		var l link
		for k := uint32(0); k <= id%groupSize; k++ {
			l, last, b = t.decode(b, last)
		}
		return l, nil
	}
	if err := t.flush(); err != nil {
		return link{}, err
	}
	var b [8]byte
	if _, err := t.file.ReadAt(b[:], int64(id)*8); err != nil {
		return link{}, fmt.Errorf("trace log: %v", err)
	}
	return link{parent: binary.LittleEndian.Uint32(b[:4]), action: binary.LittleEndian.Uint32(b[4:])}, nil
}

// all yields the links of a log in memory, in order.
func (t *traceLog) all() iter.Seq[link] {
	return func(yield func(link) bool) {
		for id, g := range t.groups {
			b, last := t.blocks[g.block][g.off:], g.last
			for k := 0; k < groupSize && id*groupSize+k < t.n; k++ {
				var l link
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
	if t.file == nil {
		return nil
	}
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("trace log: %v", err)
	}
	return nil
}

func (t *traceLog) len() int { return t.n }

// bytes is the log's size in memory.
func (t *traceLog) bytes() int64 {
	if t.file != nil {
		return int64(t.w.Size())
	}
	return int64(len(t.blocks))*logBlock + int64(cap(t.groups))*16
}

// sync flushes the log and, on disk, makes it durable.
func (t *traceLog) sync() error {
	if err := t.flush(); err != nil || t.file == nil {
		return err
	}
	if err := t.file.Sync(); err != nil {
		return fmt.Errorf("trace log: %v", err)
	}
	return nil
}

func (t *traceLog) close() error {
	if t.file == nil {
		return nil
	}
	err := t.flush()
	if cerr := t.file.Close(); err == nil {
		err = cerr
	}
	return err
}
