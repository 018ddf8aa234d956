package store

import (
	"errors"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// exact keeps every state's full encoding, so no two states can be
// confused: it validates fingerprint runs on small models (--exact). It
// costs the encoding's size plus a Go map entry per state. The map's value
// is the state's index, which partial-order reduction asks for.
type exact struct {
	set   map[string]uint32
	bytes int64
}

// NewExact returns an empty visited set of full encodings.
func NewExact() Indexed { return &exact{set: map[string]uint32{}} }

// errExactCheckpoint refuses a checkpoint of full states.
var errExactCheckpoint = errors.New("an --exact run stores full states, which checkpoints do not hold")

func (x *exact) SeenAll(c *Candidates, seen []bool) []bool {
	seen = seen[:0]
	for i := range c.FPs {
		_, ok := x.set[string(c.Enc(i))]
		seen = append(seen, ok)
	}
	return seen
}

// Prefetch does nothing: a map's lookup hashes the whole encoding first.
func (x *exact) Prefetch(uint64) {}

func (x *exact) Commit(round []*Candidates, _ int, admit Admit) error {
	id := uint32(len(x.set))
	for _, c := range round {
		c.clearFresh()
		for i := range c.FPs {
			enc := c.Enc(i)
			if _, ok := x.set[string(enc)]; ok {
				continue
			}
			x.set[string(enc)] = id
			id++
			x.bytes += int64(len(enc)) + 48
			c.fresh[i] = true
		}
	}
	admitFresh(round, admit)
	return nil
}

func (x *exact) IndexOf(_ uint64, enc []byte) uint32 {
	if id, ok := x.set[string(enc)]; ok {
		return id
	}
	return NotStored
}

// EndLevel has nothing to do: every commit is decided at once.
func (x *exact) EndLevel(Admit) error { return nil }

func (x *exact) Len() int64       { return int64(len(x.set)) }
func (x *exact) Bytes() int64     { return x.bytes }
func (x *exact) FileBytes() int64 { return 0 }
func (x *exact) Close() error     { return nil }

// Checkpoint refuses: the section would hold every state in full.
func (x *exact) Checkpoint(*diskio.SectionWriter) error { return errExactCheckpoint }
func (x *exact) Committed() error                       { return nil }
func (x *exact) Recover(*diskio.Section, int64) error   { return errExactCheckpoint }
