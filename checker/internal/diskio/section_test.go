package diskio

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// writeMixed writes n records of every kind a section holds, record i's
// string i%37 bytes long, and returns the bytes.
func writeMixed(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewSectionWriter(&buf, 1<<12)
	for i := range n {
		w.Uint(uint64(i) << (i % 50))
		w.Int(-int64(i) * 7)
		w.Uint32(uint32(i))
		w.Uint64(uint64(i) * 0x9E3779B97F4A7C15)
		w.String(strings.Repeat("x", i%37))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readMixed reads what writeMixed wrote and fails at the first difference.
func readMixed(t *testing.T, r *Section, n int) {
	t.Helper()
	for i := range n {
		u, v, x, y, s := r.Uint(), r.Int(), r.Uint32(), r.Uint64(), r.String()
		if r.Err() != nil {
			t.Fatalf("record %d: %v", i, r.Err())
		}
		if u != uint64(i)<<(i%50) || v != -int64(i)*7 || x != uint32(i) || y != uint64(i)*0x9E3779B97F4A7C15 || s != strings.Repeat("x", i%37) {
			t.Fatalf("record %d read back as %d %d %d %d %q", i, u, v, x, y, s)
		}
	}
}

// A section streamed from a reader, in reads of any length, reads back
// what was written, across its window's refills (the records are several
// windows long), as the same bytes in memory do; it ends where they end.
func TestStreamedSectionReadsWhatWasWritten(t *testing.T) {
	const n = 150000
	data := writeMixed(t, n)
	if len(data) < 3*sectionWindow {
		t.Fatalf("the records take %d bytes, not several windows", len(data))
	}
	for name, r := range map[string]*Section{
		"memory":    NewSection(data),
		"streamed":  NewSectionReader(bytes.NewReader(data), int64(len(data))),
		"half read": NewSectionReader(iotest.HalfReader(bytes.NewReader(data)), int64(len(data))),
	} {
		t.Run(name, func(t *testing.T) {
			readMixed(t, r, n)
			if r.Len() != 0 || r.Err() != nil {
				t.Fatalf("%d bytes left, error %v", r.Len(), r.Err())
			}
			if r.Uint(); r.Err() == nil {
				t.Fatal("a read past the end did not fail")
			}
		})
	}
}

// A streamed section cut short fails at the first read past its end, and
// a reader's failure is the section's error; either sticks.
func TestStreamedSectionFailsShortOrOnAFailedRead(t *testing.T) {
	data := writeMixed(t, 1000)
	short := NewSectionReader(bytes.NewReader(data[:len(data)-3]), int64(len(data)))
	for range 1000 {
		short.Uint()
		short.Int()
		short.Uint32()
		short.Uint64()
		_ = short.String()
	}
	if short.Err() == nil {
		t.Fatal("a section cut short read to its end")
	}
	broken := errors.New("the disk failed")
	r := NewSectionReader(io.MultiReader(bytes.NewReader(data[:100]), iotest.ErrReader(broken)), int64(len(data)))
	if r.Bytes(200); !errors.Is(r.Err(), broken) {
		t.Fatalf("a failed read gave error %v", r.Err())
	}
	if r.Uint() != 0 || !errors.Is(r.Err(), broken) {
		t.Fatal("a read after a failure returned a value or another error")
	}
}
