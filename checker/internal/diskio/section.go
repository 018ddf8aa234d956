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

// Section reads sections from bytes in memory (NewSection) or streamed
// from a reader (NewSectionReader), through a window that it refills, so
// that a checkpoint is never held whole in memory while its sections are
// restored: a resume's peak memory stays that of the run it restores. The
// first error sticks: every read after it returns zero values, and Err
// reports it.
type Section struct {
	// b is the window's bytes not read yet, at the end of buf.
	b, buf []byte
	src    io.Reader
	// left is the number of bytes src still holds after the window.
	left int64
	err  error
}

// sectionWindow is the size of a streamed section's window.
const sectionWindow = 1 << 20

// NewSection reads the sections in b.
func NewSection(b []byte) *Section { return &Section{b: b} }

// NewSectionReader reads the sections in the next size bytes of src.
func NewSectionReader(src io.Reader, size int64) *Section {
	return &Section{src: src, left: size}
}

// Err is the first read that found the bytes short or malformed, or that
// failed.
func (r *Section) Err() error { return r.err }

// Len is the number of bytes not read yet.
func (r *Section) Len() int64 { return int64(len(r.b)) + r.left }

// fill makes the window hold at least n bytes not read yet, or all that
// are left if fewer, and reports whether it holds n.
func (r *Section) fill(n int) bool {
	if len(r.b) >= n {
		return true
	}
	if r.left == 0 || r.err != nil {
		return false
	}
	want := int(min(int64(max(n, sectionWindow)), int64(len(r.b))+r.left))
	if cap(r.buf) < want {
		r.buf = make([]byte, want)
	}
	r.buf = r.buf[:cap(r.buf)]
	kept := copy(r.buf, r.b)
	read := int(min(int64(len(r.buf)-kept), r.left))
	if _, err := io.ReadFull(r.src, r.buf[kept:kept+read]); err != nil {
		r.err = err
		r.b = nil
		return false
	}
	r.left -= int64(read)
	r.b = r.buf[:kept+read]
	return len(r.b) >= n
}

// Uint reads an unsigned varint.
func (r *Section) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	r.fill(binary.MaxVarintLen64)
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
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
	r.fill(binary.MaxVarintLen64)
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// fail records bytes found short or malformed, unless a read failed first.
func (r *Section) fail() {
	if r.err == nil {
		r.err = io.ErrUnexpectedEOF
	}
}

// Bytes reads the next n bytes. They alias the section's window: they
// stay valid only until the next read.
func (r *Section) Bytes(n int) []byte {
	if r.err != nil || n < 0 || int64(n) > r.Len() || !r.fill(n) {
		r.fail()
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
	return string(r.Bytes(int(min(n, uint64(r.Len())))))
}

// BadSection is a checkpoint section that does not hold what its owner
// writes: a resume refuses the checkpoint as not valid, saying why.
type BadSection struct{ Why string }

func (e *BadSection) Error() string { return "not a valid checkpoint section (" + e.Why + ")" }
