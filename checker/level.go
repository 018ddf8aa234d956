package checker

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// level is one breadth-first level: the encodings of its states. States get
// their indices in the order they are committed, so a level's indices are
// consecutive from first and need not be stored.
//
// In memory the encodings lie back to back in data. A spilled level (disk
// mode) writes them to a file instead, as length-prefixed records, and
// holds in data only the window of states a round is expanding, read back
// in order by window.
type level struct {
	first uint32
	data  []byte
	ends  []uint32

	file *os.File
	w    *bufio.Writer
	r    *bufio.Reader
	n    int // states in a spilled level
	wlo  int // index of the window's first state
}

// spillLevel returns an empty level kept in the file path.
func spillLevel(path string) (*level, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return &level{file: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (l *level) len() int {
	if l.file != nil {
		return l.n
	}
	return len(l.ends)
}

// id is the index of the level's j-th state.
func (l *level) id(j int) uint32 { return l.first + uint32(j) }

// add appends the encoding of the state with the next index.
func (l *level) add(enc []byte) error {
	if l.file != nil {
		var hdr [binary.MaxVarintLen64]byte
		if _, err := l.w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(enc)))]); err != nil {
			return err
		}
		if _, err := l.w.Write(enc); err != nil {
			return err
		}
		l.n++
		return nil
	}
	l.data = append(l.data, enc...)
	l.ends = append(l.ends, uint32(len(l.data)))
	return nil
}

// state is the encoding of the level's j-th state, which must lie in the
// current window for a spilled level.
func (l *level) state(j int) []byte {
	j -= l.wlo
	from := uint32(0)
	if j > 0 {
		from = l.ends[j-1]
	}
	return l.data[from:l.ends[j]]
}

// finish ends writing: a spilled level is flushed and rewound for reading.
func (l *level) finish() error {
	if l.file == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return err
	}
	if _, err := l.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	l.r, l.wlo = bufio.NewReaderSize(l.file, 1<<20), 0
	l.data, l.ends = l.data[:0], l.ends[:0]
	return nil
}

// window loads states lo..hi-1 of a spilled level; windows must be asked
// for in order. It does nothing for a level in memory.
func (l *level) window(lo, hi int) error {
	if l.file == nil {
		return nil
	}
	if lo != l.wlo+len(l.ends) {
		return fmt.Errorf("internal error: level window %d..%d out of order", lo, hi)
	}
	l.data, l.ends, l.wlo = l.data[:0], l.ends[:0], lo
	for j := lo; j < hi; j++ {
		size, err := binary.ReadUvarint(l.r)
		if err != nil {
			return fmt.Errorf("reading level: %v", err)
		}
		n := len(l.data)
		l.data = slices.Grow(l.data, int(size))[:n+int(size)]
		if _, err := io.ReadFull(l.r, l.data[n:]); err != nil {
			return fmt.Errorf("reading level: %v", err)
		}
		l.ends = append(l.ends, uint32(len(l.data)))
	}
	return nil
}

// reset empties the level for states numbered from first.
func (l *level) reset(first uint32) error {
	l.first, l.data, l.ends, l.wlo = first, l.data[:0], l.ends[:0], 0
	if l.file == nil {
		return nil
	}
	l.n = 0
	if err := l.file.Truncate(0); err != nil {
		return err
	}
	if _, err := l.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	l.w.Reset(l.file)
	return nil
}

func (l *level) close() error {
	if l.file == nil {
		return nil
	}
	return l.file.Close()
}

// each calls f on every state of a finished level, in order, and leaves a
// spilled level rewound for reading.
func (l *level) each(f func(enc []byte) error) error {
	if l.file == nil {
		for j := 0; j < l.len(); j++ {
			if err := f(l.state(j)); err != nil {
				return err
			}
		}
		return nil
	}
	n := l.n
	if err := l.finish(); err != nil {
		return err
	}
	for j := 0; j < n; j++ {
		if err := l.window(j, j+1); err != nil {
			return err
		}
		if err := f(l.state(j)); err != nil {
			return err
		}
	}
	return l.finish()
}
