//go:build !uniring_generic

package uniring

// The byte layout of the state (doc.go); generic.go is its reference.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// word packs m into two bytes: kind<<15 | id.
func word(m Msg) uint16 { return uint16(m.Kind)<<15 | uint16(m.ID) }

func msgOf(hi, lo byte) Msg {
	w := uint16(hi)<<8 | uint16(lo)
	return Msg{Kind: Kind(w >> 15), ID: int(w & MaxID)}
}

// State is the global state, laid out as the package doc says.
type State struct {
	n int
	b []byte
	// index finds the channels' sections in a large ring (index.go); it is
	// not part of the state.
	index sectionIndex
}

// New returns the initial state of a ring of n: no flags, undecided, empty
// channels, ghost zero.
func New(n int) State { return State{n: n, b: make([]byte, header(n))} }

// header is the size of the fixed part of the layout.
func header(n int) int { return 4*n + 4 }

// Procs is the ring size.
func (s *State) Procs() int { return s.n }

// Flag is process i's participant (Chang–Roberts) or started (LeLann) flag.
func (s *State) Flag(i int) bool { return s.b[i] != 0 }

// SetFlag sets process i's flag.
func (s *State) SetFlag(i int) { s.b[i] = 1 }

// Decision is process p's decision.
func (s *State) Decision(p int) invariants.Decision { return invariants.Decision(s.b[s.n+p]) }

// Decide records process p's decision.
func (s *State) Decide(p int, d invariants.Decision) { s.b[s.n+p] = byte(d) }

// Decisions hands the election properties every decision at once.
func (s *State) Decisions() []invariants.Decision {
	return unsafe.Slice((*invariants.Decision)(unsafe.Pointer(&s.b[s.n])), s.n)
}

// AppendDecisions appends every process's decision: what the election
// properties read.
func AppendDecisions(buf []byte, s *State) []byte { return append(buf, s.b[s.n:2*s.n]...) }

// AppendGhost appends the ghost count of ⟨elect⟩ messages sent: what the
// message-count claims read.
func AppendGhost(buf []byte, s *State) []byte { return append(buf, s.b[4*s.n:4*s.n+4]...) }

// ElectSent is the ghost count of ⟨elect⟩ messages sent.
func (s *State) ElectSent() int { return int(binary.BigEndian.Uint32(s.b[4*s.n:])) }

func (s *State) countElect() {
	binary.BigEndian.PutUint32(s.b[4*s.n:], uint32(s.ElectSent()+1))
}

// Erase zeroes the ghost variables.
func Erase(s *State) { clear(s.b[4*s.n : 4*s.n+4]) }

// Pending is the number of messages in process i's input channel.
func (s *State) Pending(i int) int { return int(binary.BigEndian.Uint16(s.b[2*s.n+2*i:])) }

// setPending sets the number of messages in process i's input channel.
func (s *State) setPending(i, c int) {
	s.counted(i, c-s.Pending(i))
	binary.BigEndian.PutUint16(s.b[2*s.n+2*i:], uint16(c))
}

// section is the offset of process i's first message.
func (s *State) section(i int) int {
	return header(s.n) + 2*s.messagesBefore(i)
}

// sumCounts is the sum of the 2-byte big-endian counts in b: where the
// channels' sections start in a ring too small to index them (index.go),
// and the size a decoded state must have. It adds four counts at a time:
// of each 8 bytes read little-endian, the masked even bytes are the four
// high bytes and the odd bytes the four low ones, summed in 16-bit lanes,
// which cannot overflow within 256 reads.
func sumCounts(b []byte) int {
	total := 0
	for len(b) >= 8 {
		var hi, lo uint64
		for k := 0; k < 256 && len(b) >= 8; k++ {
			x := binary.LittleEndian.Uint64(b)
			hi += x & evenBytes
			lo += x >> 8 & evenBytes
			b = b[8:]
		}
		total += 256*laneSum(hi) + laneSum(lo)
	}
	for ; len(b) >= 2; b = b[2:] {
		total += int(b[0])<<8 | int(b[1])
	}
	return total
}

// evenBytes selects bytes 0, 2, 4 and 6 of a 64-bit word.
const evenBytes = 0x00ff00ff00ff00ff

// laneSum adds the four 16-bit lanes of x.
func laneSum(x uint64) int {
	return int(x&0xffff + x>>16&0xffff + x>>32&0xffff + x>>48)
}

// Messages lists process i's input channel, oldest (FIFO) or smallest (bag)
// first.
func (s *State) Messages(i int) []Msg {
	off := s.section(i)
	out := make([]Msg, s.Pending(i))
	for k := range out {
		out[k] = msgOf(s.b[off+2*k], s.b[off+2*k+1])
	}
	return out
}

// Quiet holds when no message is in transit.
func (s *State) Quiet() bool { return len(s.b) == header(s.n) }

// send adds m to process j's input channel; false if it is full.
func (s *State) send(j int, m Msg, l model.ChanSemantics) bool {
	c := s.Pending(j)
	if l.Cap > 0 && c >= l.Cap {
		return false
	}
	off := s.section(j)
	w := word(m)
	pos := off + 2*c
	if l.Kind == model.Bag {
		for pos > off && uint16(s.b[pos-2])<<8|uint16(s.b[pos-1]) > w {
			pos -= 2
		}
	}
	s.b = append(s.b, 0, 0)
	copy(s.b[pos+2:], s.b[pos:])
	s.b[pos], s.b[pos+1] = byte(w>>8), byte(w)
	s.setPending(j, c+1)
	return true
}

// choices is how many different receives process i's channel offers: the
// head for FIFO, one per distinct message for a bag.
func (s *State) choices(i int, l model.ChanSemantics) int {
	c := s.Pending(i)
	if c == 0 || l.Kind == model.FIFO {
		return min(c, 1)
	}
	off := s.section(i)
	n := 1
	for k := 1; k < c; k++ {
		p := off + 2*k
		if s.b[p] != s.b[p-2] || s.b[p+1] != s.b[p-1] {
			n++
		}
	}
	return n
}

// position is the offset of receive choice k in process i's channel.
func (s *State) position(i, k int, l model.ChanSemantics) int {
	pos := s.section(i)
	if l.Kind == model.FIFO {
		return pos
	}
	for k > 0 {
		pos += 2
		if s.b[pos] != s.b[pos-2] || s.b[pos+1] != s.b[pos-1] {
			k--
		}
	}
	return pos
}

// peek returns the message receive choice k would take.
func (s *State) peek(i, k int, l model.ChanSemantics) Msg {
	pos := s.position(i, k, l)
	return msgOf(s.b[pos], s.b[pos+1])
}

// recv removes and returns the message of receive choice k.
func (s *State) recv(i, k int, l model.ChanSemantics) Msg {
	pos := s.position(i, k, l)
	m := msgOf(s.b[pos], s.b[pos+1])
	copy(s.b[pos:], s.b[pos+2:])
	s.b = s.b[:len(s.b)-2]
	s.setPending(i, s.Pending(i)-1)
	return m
}

// Copy makes dst a copy of src, reusing dst's storage.
func Copy(dst, src *State) {
	dst.n, dst.b, dst.index.valid = src.n, append(dst.b[:0], src.b...), false
}

// Encode appends the state's bytes: it is its own encoding.
func Encode(buf []byte, s *State) []byte { return append(buf, s.b...) }

var errLayout = errors.New("uniring: bytes do not have the state layout")

// Decoder returns the inverse of Encode for a ring of n; it checks the
// layout, so that a corrupted encoding is refused.
func Decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(data) < header(n) {
			return errLayout
		}
		if header(n)+2*sumCounts(data[2*n:4*n]) != len(data) {
			return errLayout
		}
		s.n, s.b, s.index.valid = n, append(s.b[:0], data...), false
		return nil
	}
}

// Vars names the variables for traces; flag is the spec's word for Flag.
// The ghost counter is listed when claims are on.
func Vars(flag string, claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		out := make([]model.Var, 0, 3*s.n+1)
		for i := 0; i < s.n; i++ {
			var ch strings.Builder
			for k, m := range s.Messages(i) {
				if k > 0 {
					ch.WriteByte(' ')
				}
				ch.WriteString(m.String())
			}
			out = append(out,
				model.Var{Name: fmt.Sprintf("p%d.%s", i, flag), Value: fmt.Sprint(s.Flag(i))},
				model.Var{Name: fmt.Sprintf("p%d.decided", i), Value: s.Decision(i).String()},
				model.Var{Name: fmt.Sprintf("p%d.in", i), Value: "[" + ch.String() + "]"})
		}
		if claims {
			out = append(out, model.Var{Name: "ghost.elect_sent", Value: fmt.Sprint(s.ElectSent())})
		}
		return out
	}
}

// unflagged is the number of processes whose flag is not set: the zero
// bytes among the flags, counted by package bytes' vectorised loop, as the
// measure is evaluated on every expanded state.
func (s *State) unflagged() int { return bytes.Count(s.b[:s.n], []byte{0}) }

// sumWeights is Σ over the messages in transit of w.of(i, m), i the
// process whose input channel holds m: the termination measure's sum
// (termination.go), w.of on the bytes as they lie: a message's kind is
// the top bit of its first byte (Elect 0, Done 1), its id the rest. The
// loop adds only the hops d, without a branch (d + n when d is negative),
// and counts the ⟨done⟩ messages; the 1 every message weighs and the
// n + 1 more of each ⟨elect⟩ are added once at the end, from the number
// of messages the section's length gives.
func (s *State) sumWeights(w *weights) int {
	b, n := s.b, s.n
	off, hops, done := header(n), 0, 0
	origin, size := w.origin, w.n
	for p, i := 0, 2*n; off < len(b); p, i = p+1, i+2 {
		for end := off + 2*(int(b[i])<<8|int(b[i+1])); off < end; off += 2 {
			hi := int(b[off])
			d := int(origin[(hi&0x7f)<<8|int(b[off+1])]) - p
			hops += d + (d>>63)&size
			done += hi >> 7
		}
	}
	msgs := (len(b) - header(n)) / 2
	return hops + msgs + (msgs-done)*(size+1)
}

// EachMessage calls f on every message in transit with the process whose
// input channel holds it, channel by channel, oldest (FIFO) or smallest
// (bag) first, allocating nothing: the channels' sections lie back to back.
func (s *State) EachMessage(f func(i int, m Msg)) {
	off := header(s.n)
	for i := 0; i < s.n; i++ {
		for k := s.Pending(i); k > 0; k-- {
			f(i, msgOf(s.b[off], s.b[off+1]))
			off += 2
		}
	}
}
