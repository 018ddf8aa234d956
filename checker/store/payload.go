package store

import (
	"fmt"

	"github.com/ringcheck/mc/checker/internal/offheap"
)

// WithPayload is a visited set in memory that keeps, beside each
// fingerprint, a payload of a few bits that the store does not interpret,
// and whether the state is recent: stored since the last NewLevel. A
// search extension keeps its per-state bookkeeping there (package
// checker/termination keeps its marks: slots.go there): a
// successor's payload then comes with the lookup that finds it stored, and
// a state costs those bits besides its fingerprint instead of an index and
// an array entry. Commit gives each new state the payload its candidate
// carries (PayloadLayout) and makes it recent. NewPayloadMemory makes one.
type WithPayload interface {
	Store
	// Payload returns the payload of the state with fingerprint fp,
	// whether it is recent, and whether it is stored at all.
	Payload(fp uint64) (bits uint32, recent, stored bool)
	// SetPayload replaces the payload of the stored state with
	// fingerprint fp.
	SetPayload(fp uint64, bits uint32)
	// PayloadAll reports, of each fingerprint of fps, whether it is stored
	// and its payload (0 if not), reusing the slices' storage: SeenAll
	// that gives the payloads too.
	PayloadAll(fps []uint64, seen []bool, bits []uint32) ([]bool, []uint32)
	// NewLevel makes every stored state not recent.
	NewLevel()
	// PayloadBytes is the part of Bytes that the payloads and the recent
	// bits hold.
	PayloadBytes() int64
}

// PayloadLayout says how many bits of payload a WithPayload store keeps
// per state, Bits (at most 32), and where a candidate carries them: as
// value At of the Vals values each candidate has in Candidates.Vals.
type PayloadLayout struct {
	Bits, Vals, At int
}

// NewPayloadMemory returns an empty visited set of fingerprints in memory
// that keeps each state's payload, laid out in its candidates as l says.
func NewPayloadMemory(l PayloadLayout) WithPayload {
	if l.Bits > 32 || l.At >= l.Vals {
		panic(fmt.Sprintf("internal error: a payload of %d bits, value %d of %d", l.Bits, l.At, l.Vals))
	}
	m := newMemory()
	m.layout = &l
	for i := range m.shards {
		sh := &m.shards[i]
		sh.payload = newColumn(columnBits(l.Bits), len(sh.keys))
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
// a table, packed in words mapped outside the Go heap: a payload of one
// bit costs one bit a slot.
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

// payloadOf is the payload that candidate i of c carries.
func (m *memory) payloadOf(c *Candidates, i int) uint32 {
	return uint32(c.Vals[i*m.layout.Vals+m.layout.At])
}

func (m *memory) Payload(fp uint64) (uint32, bool, bool) {
	i := m.slot(fp)
	if i < 0 {
		return 0, false, false
	}
	sh := &m.shards[shardOf(tableKey(fp))]
	return sh.payload.get(i), sh.recent.get(i) == 1, true
}

func (m *memory) SetPayload(fp uint64, bits uint32) {
	i := m.slot(fp)
	if i < 0 {
		panic(fmt.Sprintf("internal error: a payload set on state %#x, which is not stored", fp))
	}
	m.shards[shardOf(tableKey(fp))].payload.set(i, bits)
}

// PayloadAll reads the home slots of up to 16 fingerprints at a time, as
// SeenAll does, then the payloads of those found there: loads that depend on
// nothing but the first ones, so that their cache misses overlap too.
func (m *memory) PayloadAll(fps []uint64, seen []bool, bits []uint32) ([]bool, []uint32) {
	seen, bits = seen[:0], bits[:0]
	var first [16]uint64
	for len(fps) > 0 {
		block := fps[:min(len(fps), len(first))]
		fps = fps[len(block):]
		m.loadHomes(block, &first)
		var atHome [16]uint32
		for i, fp := range block {
			if fp = tableKey(fp); first[i] == fp {
				sh := &m.shards[shardOf(fp)]
				atHome[i] = sh.payload.get(home(fp, len(sh.keys)))
			}
		}
		for i, fp := range block {
			switch first[i] {
			case 0:
				seen, bits = append(seen, false), append(bits, 0)
			case tableKey(fp):
				seen, bits = append(seen, true), append(bits, atHome[i])
			default:
				pl, _, stored := m.Payload(fp)
				seen, bits = append(seen, stored), append(bits, pl)
			}
		}
	}
	return seen, bits
}

func (m *memory) NewLevel() {
	for i := range m.shards {
		clear(m.shards[i].recent.words)
	}
}

func (m *memory) PayloadBytes() int64 {
	var b int64
	for i := range m.shards {
		b += m.shards[i].payload.bytes() + m.shards[i].recent.bytes()
	}
	return b
}
