package checker

import (
	"fmt"
	"io"

	"github.com/cespare/xxhash/v2"
)

// Every file a disk run writes and reads back is checksummed, so that a
// corrupted file is refused instead of silently changing the counts or
// the verdicts: a bit flipped in a sorted run once made a resumed misra
// n = 4 run report 740,961 states instead of 740,960, with exit 0.
//
// The sum is xxhash64 (the hash the checkpoint itself ends with): fast
// enough to run over every byte written and read, and a corrupted file
// matches it with probability 2^-64. Sums of files that outlive the
// process (the runs of fingerprints and the trace log) are recorded in the
// checkpoint; those of files written and read back within one level (the
// levels, the candidates, the sort's runs) are kept in memory.

// summingWriter passes writes through to w and sums the bytes written.
type summingWriter struct {
	w   io.Writer
	sum *xxhash.Digest
}

func newSummingWriter(w io.Writer) *summingWriter {
	return &summingWriter{w: w, sum: xxhash.New()}
}

func (s *summingWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.sum.Write(p[:n])
	return n, err
}

// summingReader passes reads through from r and sums the bytes read.
type summingReader struct {
	r   io.Reader
	sum *xxhash.Digest
}

func newSummingReader(r io.Reader) *summingReader {
	return &summingReader{r: r, sum: xxhash.New()}
}

func (s *summingReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.sum.Write(p[:n])
	return n, err
}

// CorruptFile is a file whose bytes are not those mc wrote. Found while
// resuming, it refuses the resume; found during a run, it stops the run
// as any other fault of the disk does (environment.go).
type CorruptFile struct {
	File      string
	Got, Want uint64
}

func (c *CorruptFile) Error() string {
	return fmt.Sprintf("%s is corrupted: its checksum is %016x, mc wrote %016x", c.File, c.Got, c.Want)
}

// checkSum says whether sum, of the bytes read back from file, is want,
// the sum of those written.
func checkSum(file string, sum, want uint64) error {
	if sum != want {
		return &CorruptFile{File: file, Got: sum, Want: want}
	}
	return nil
}
