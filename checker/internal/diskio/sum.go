package diskio

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

// SumWriter passes writes through to w and sums the bytes written.
type SumWriter struct {
	w   io.Writer
	sum *xxhash.Digest
}

func NewSumWriter(w io.Writer) *SumWriter {
	return &SumWriter{w: w, sum: xxhash.New()}
}

func (s *SumWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.sum.Write(p[:n])
	return n, err
}

// Sum is the sum of the bytes written since the last Reset.
func (s *SumWriter) Sum() uint64 { return s.sum.Sum64() }

// Reset starts a new sum.
func (s *SumWriter) Reset() { s.sum.Reset() }

// SumReader passes reads through from r and sums the bytes read.
type SumReader struct {
	r   io.Reader
	sum *xxhash.Digest
}

func NewSumReader(r io.Reader) *SumReader {
	return &SumReader{r: r, sum: xxhash.New()}
}

func (s *SumReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.sum.Write(p[:n])
	return n, err
}

// Sum is the sum of the bytes read since the last Reset.
func (s *SumReader) Sum() uint64 { return s.sum.Sum64() }

// Reset starts a new sum.
func (s *SumReader) Reset() { s.sum.Reset() }

// CorruptFile is a file whose bytes are not those mc wrote. Found while
// resuming, it refuses the resume; found during a run, it stops the run
// as any other fault of the disk does (fault.go).
type CorruptFile struct {
	File      string
	Got, Want uint64
}

func (c *CorruptFile) Error() string {
	return fmt.Sprintf("%s is corrupted: its checksum is %016x, mc wrote %016x", c.File, c.Got, c.Want)
}

// CheckSum says whether sum, of the bytes read back from file, is want,
// the sum of those written.
func CheckSum(file string, sum, want uint64) error {
	if sum != want {
		return &CorruptFile{File: file, Got: sum, Want: want}
	}
	return nil
}
