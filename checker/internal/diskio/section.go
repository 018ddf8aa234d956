package diskio

import (
	"bufio"
	"encoding/binary"
	"io"
)

// A checkpoint is a sequence of sections, each written by its owner (the
// search, the trace log, the store) and read back by it in the same order:
// unsigned and signed varints, fixed little-endian words, length-prefixed
// strings and raw bytes.

// SectionWriter writes sections through a buffer. Its methods return
// nothing: the buffer keeps the first write error, which Flush returns.
type SectionWriter struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
}

// NewSectionWriter writes to w through a buffer of size bytes.
func NewSectionWriter(w io.Writer, size int) *SectionWriter {
	return &SectionWriter{w: bufio.NewWriterSize(w, size)}
}

// Uint writes v as an unsigned varint.
func (w *SectionWriter) Uint(v uint64) { w.w.Write(binary.AppendUvarint(w.buf[:0], v)) }

// Int writes v as a signed varint.
func (w *SectionWriter) Int(v int64) { w.w.Write(binary.AppendVarint(w.buf[:0], v)) }

// Uint32 writes v in 4 bytes, little-endian.
func (w *SectionWriter) Uint32(v uint32) { w.w.Write(binary.LittleEndian.AppendUint32(w.buf[:0], v)) }

// Uint64 writes v in 8 bytes, little-endian.
func (w *SectionWriter) Uint64(v uint64) { w.w.Write(binary.LittleEndian.AppendUint64(w.buf[:0], v)) }

// String writes s's length as an unsigned varint, then s.
func (w *SectionWriter) String(s string) {
	w.Uint(uint64(len(s)))
	w.w.WriteString(s)
}

// Raw writes b as it is.
func (w *SectionWriter) Raw(b []byte) { w.w.Write(b) }

// Flush writes what is buffered and returns the first write error.
func (w *SectionWriter) Flush() error { return w.w.Flush() }

// Section reads sections from b. The first error sticks: every read after
// it returns zero values, and Err reports it.
type Section struct {
	b   []byte
	err error
}

// NewSection reads the sections in b.
func NewSection(b []byte) *Section { return &Section{b: b} }

// Err is the first read that found the bytes short or malformed.
func (r *Section) Err() error { return r.err }

// Len is the number of bytes not read yet.
func (r *Section) Len() int { return len(r.b) }

// Uint reads an unsigned varint.
func (r *Section) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Int reads a signed varint.
func (r *Section) Int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Bytes reads the next n bytes, which alias the section's.
func (r *Section) Bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// Uint32 reads 4 bytes, little-endian.
func (r *Section) Uint32() uint32 {
	if b := r.Bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// Uint64 reads 8 bytes, little-endian.
func (r *Section) Uint64() uint64 {
	if b := r.Bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// String reads what SectionWriter.String wrote.
func (r *Section) String() string {
	n := r.Uint()
	return string(r.Bytes(int(min(n, uint64(len(r.b))))))
}

// BadSection is a checkpoint section that does not hold what its owner
// writes: a resume refuses the checkpoint as not valid, saying why.
type BadSection struct{ Why string }

func (e *BadSection) Error() string { return "not a valid checkpoint section (" + e.Why + ")" }
