package store

import (
	"fmt"

	"github.com/ringcheck/mc/checker/internal/offheap"
)

// Marked is a visited set in memory that keeps, beside each fingerprint,
// the marks of a termination measure (package checker, acyclic_marks.go)
// and whether the state is recent: stored since the last NewLevel. A
// successor's marks then come with the lookup that finds it stored, and a
// state costs a few bits besides its fingerprint instead of an index and
// an array entry. Commit gives each new state the marks its candidate
// carries (MarkLayout) and makes it recent. NewMarkedMemory makes one.
type Marked interface {
	Store
	// Marks returns the marks of the state with fingerprint fp, whether it
	// is recent, and whether it is stored at all.
	Marks(fp uint64) (marks uint32, recent, stored bool)
	// SetMarks replaces the marks of the stored state with fingerprint fp.
	SetMarks(fp uint64, marks uint32)
	// MarksAll reports, of each fingerprint of fps, whether it is stored
	// and its marks (0 if not), reusing the slices' storage: SeenAll that
	// gives the marks too.
	MarksAll(fps []uint64, seen []bool, marks []uint32) ([]bool, []uint32)
	// NewLevel makes every stored state not recent.
	NewLevel()
	// MarksBytes is the part of Bytes that the marks and the recent bits
	// hold.
	MarksBytes() int64
}

// MarkLayout says how many bits of marks a Marked store keeps per state,
// Bits (at most 32), and where a candidate carries them: as value At of
// the Vals values each candidate has in Candidates.Vals.
type MarkLayout struct {
	Bits, Vals, At int
}

// NewMarkedMemory returns an empty visited set of fingerprints in memory
// that keeps each state's marks, laid out in its candidates as l says.
func NewMarkedMemory(l MarkLayout) Marked {
	if l.Bits > 32 || l.At >= l.Vals {
		panic(fmt.Sprintf("internal error: marks of %d bits, value %d of %d", l.Bits, l.At, l.Vals))
	}
	m := newMemory()
	m.layout = &l
	for i := range m.shards {
		sh := &m.shards[i]
		sh.marks = newColumn(columnBits(l.Bits), len(sh.keys))
		sh.recent = newColumn(1, len(sh.keys))
	}
	return m
}

// columnBits is the width of the column that holds bits bits: a power of
// two, so that no slot's value straddles two words.
func columnBits(bits int) uint {
	w := uint(1)
	for int(w) < bits {
		w *= 2
	}
	return w
}

// column holds a value of bits bits (a power of two up to 32) per slot of
// a table, packed in words mapped outside the Go heap: a state with one
// liveness property costs one bit for its marks.
type column struct {
	bits  uint
	words []uint64
}

func newColumn(bits uint, slots int) column {
	return column{bits: bits, words: offheap.Slice[uint64]((slots*int(bits) + 63) / 64)}
}

func (c column) get(slot int) uint32 {
	at := uint(slot) * c.bits
	return uint32(c.words[at/64] >> (at % 64) & (1<<c.bits - 1))
}

func (c column) set(slot int, v uint32) {
	at := uint(slot) * c.bits
	mask := uint64(1)<<c.bits - 1
	w := &c.words[at/64]
	*w = *w&^(mask<<(at%64)) | (uint64(v)&mask)<<(at%64)
}

func (c column) bytes() int64 { return int64(len(c.words)) * 8 }

func (c column) free() { offheap.Free(c.words) }

// marksOf is the marks that candidate i of c carries.
func (m *memory) marksOf(c *Candidates, i int) uint32 {
	return uint32(c.Vals[i*m.layout.Vals+m.layout.At])
}

func (m *memory) Marks(fp uint64) (uint32, bool, bool) {
	i := m.slot(fp)
	if i < 0 {
		return 0, false, false
	}
	sh := &m.shards[shardOf(tableKey(fp))]
	return sh.marks.get(i), sh.recent.get(i) == 1, true
}

func (m *memory) SetMarks(fp uint64, marks uint32) {
	i := m.slot(fp)
	if i < 0 {
		panic(fmt.Sprintf("internal error: marks set on state %#x, which is not stored", fp))
	}
	m.shards[shardOf(tableKey(fp))].marks.set(i, marks)
}

// MarksAll reads the home slots of up to 16 fingerprints at a time, as
// SeenAll does, then the marks of those found there: loads that depend on
// nothing but the first ones, so that their cache misses overlap too.
func (m *memory) MarksAll(fps []uint64, seen []bool, marks []uint32) ([]bool, []uint32) {
	seen, marks = seen[:0], marks[:0]
	var first [16]uint64
	for len(fps) > 0 {
		block := fps[:min(len(fps), len(first))]
		fps = fps[len(block):]
		m.loadHomes(block, &first)
		var atHome [16]uint32
		for i, fp := range block {
			if fp = tableKey(fp); first[i] == fp {
				sh := &m.shards[shardOf(fp)]
				atHome[i] = sh.marks.get(home(fp, len(sh.keys)))
			}
		}
		for i, fp := range block {
			switch first[i] {
			case 0:
				seen, marks = append(seen, false), append(marks, 0)
			case tableKey(fp):
				seen, marks = append(seen, true), append(marks, atHome[i])
			default:
				mk, _, stored := m.Marks(fp)
				seen, marks = append(seen, stored), append(marks, mk)
			}
		}
	}
	return seen, marks
}

func (m *memory) NewLevel() {
	for i := range m.shards {
		clear(m.shards[i].recent.words)
	}
}

func (m *memory) MarksBytes() int64 {
	var b int64
	for i := range m.shards {
		b += m.shards[i].marks.bytes() + m.shards[i].recent.bytes()
	}
	return b
}
