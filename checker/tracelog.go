package checker

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
)

// traceLog is the append-only log of trace links: entry i says how state i
// was first reached. In memory it grows in fixed blocks, so growing never
// copies; on disk (file not nil) it is a file of 8-byte entries written
// through a buffer, read back only to rebuild traces.
type traceLog struct {
	blocks [][]link
	n      int
	file   *os.File
	w      *bufio.Writer
}

const logBlock = 1 << 16

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
	return &traceLog{n: n, file: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// add appends l as the next state's link and returns that state's index.
func (t *traceLog) add(l link) uint32 {
	if t.file != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], l.parent)
		binary.LittleEndian.PutUint32(b[4:], l.action)
		t.w.Write(b[:]) // a write error sticks in the buffer; flush reports it
	} else {
		if t.n%logBlock == 0 {
			t.blocks = append(t.blocks, make([]link, 0, logBlock))
		}
		b := &t.blocks[len(t.blocks)-1]
		*b = append(*b, l)
	}
	t.n++
	return uint32(t.n - 1)
}

// at is the link of state id.
func (t *traceLog) at(id uint32) (link, error) {
	if t.file == nil {
		return t.blocks[id/logBlock][id%logBlock], nil
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
	return int64(len(t.blocks)) * logBlock * 8
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
