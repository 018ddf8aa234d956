package checker

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// packedStates holds the encodings of a level kept in memory, each stored
// as its difference from the state added before it. States are committed
// in frontier order, so neighbours in a level are mostly successors of one
// parent and differ in a few bytes; and encodings are mostly small fields
// in wide slots, so their bytes are mostly zero. A level is written once
// and read once, in order, by windows (level.window), so a state need only
// be rebuilt from the one before it.
//
// Each state is a record: the uvarint of its length times two, plus one if
// the record holds the encoding as it is; otherwise, for each group of 8
// bytes of the encoding, a byte whose bit k says that byte k of the group
// differs from the previous state's (taken as 0 past its end), then the
// xor of each byte that differs. A record is kept as it is when packing
// would not make it smaller. Records lie back to back in blocks from the
// level's blockPool and never span two; the blocks a window has read are
// given back at once, where the successors find them.
type packedStates struct {
	pool *blockPool
	// blocks[k][:len] holds records; blocks before freed are given back.
	blocks [][]byte
	freed  int
	n      int
	// last is the encoding added last, against which the next is packed.
	last []byte
	// at reads the level for its windows, giving back blocks behind it.
	at packCursor
}

// packCursor reads a level's records in order: the next is at
// blocks[block][off:]; state is the encoding read last.
type packCursor struct {
	block, off int
	state      []byte
}

// packHeader bounds a record's length prefix: a length of at most
// levelBlock, times two, plus one, takes 3 uvarint bytes.
const packHeader = 3

// maxEncoding is the largest encoding of a state mc explores: a record
// holding it as it is fills a block.
const maxEncoding = levelBlock - packHeader

func (p *packedStates) add(enc []byte) error {
	if len(enc) > maxEncoding {
		return fmt.Errorf("a state's encoding has %d bytes; mc supports at most %d", len(enc), maxEncoding)
	}
	// Room for the record packed at worst, a mask per group and every byte
	// differing; an encoding too large for that is kept as it is.
	worst := len(enc) + (len(enc)+7)/8
	need := min(packHeader+worst, levelBlock)
	k := len(p.blocks) - 1
	if k < p.freed || levelBlock-len(p.blocks[k]) < need {
		p.blocks = append(p.blocks, p.pool.get()[:0])
		k++
	}
	b := p.blocks[k]
	start := len(b)
	b = binary.AppendUvarint(b, uint64(len(enc))<<1)
	body := len(b)
	if body+worst <= cap(b) {
		if n := packXor(b[body:body+worst], enc, p.last); n < len(enc) {
			b = b[:body+n]
		} else {
			b = append(b, enc...)
			b[start] |= 1
		}
	} else {
		b = append(b, enc...)
		b[start] |= 1
	}
	p.blocks[k] = b
	p.last = append(p.last[:0], enc...)
	p.n++
	return nil
}

// packXor writes enc packed against prev into dst, which has room for it at
// worst: per group of 8 bytes, the mask of the bytes that differ, then
// their xor. It returns the packed length.
func packXor(dst, enc, prev []byte) int {
	n, i, whole := 0, 0, min(len(enc), len(prev))&^7
	for ; i < len(enc); i += 8 {
		var x uint64
		if i < whole {
			x = binary.LittleEndian.Uint64(enc[i:]) ^ binary.LittleEndian.Uint64(prev[i:])
		} else { // past prev's whole groups: prev's missing bytes are zeros
			for j := i; j < min(i+8, len(enc)); j++ {
				d := enc[j]
				if j < len(prev) {
					d ^= prev[j]
				}
				x |= uint64(d) << (8 * (j - i))
			}
		}
		if x == 0 {
			dst[n] = 0
			n++
			continue
		}
		// The top bit of each byte of x that is not zero, gathered into
		// the mask's bits.
		y := ((x & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f | x) & 0x8080808080808080
		mask := byte((y >> 7) * 0x0102040810204080 >> 56)
		dst[n] = mask
		n++
		for m := mask; m != 0; m &= m - 1 {
			dst[n] = byte(x >> (8 * bits.TrailingZeros8(m)))
			n++
		}
	}
	return n
}

// next reads the record at c and returns its state, which holds until the
// next call with c.
func (p *packedStates) next(c *packCursor) []byte {
	b := p.blocks[c.block][c.off:]
	if len(b) == 0 { // the records go on in the next block
		c.block, c.off = c.block+1, 0
		b = p.blocks[c.block]
	}
	h, k := binary.Uvarint(b)
	n := int(h >> 1)
	b = b[k:]
	if h&1 == 1 {
		c.state = append(c.state[:0], b[:n]...)
		c.off += k + n
		return c.state
	}
	if had := len(c.state); n > had {
		c.state = append(c.state, make([]byte, n-had)...)
	} else {
		c.state = c.state[:n]
	}
	s, r := c.state, 0
	for i := 0; i < n; i += 8 {
		mask := b[r]
		r++
		if mask == 0 {
			continue
		}
		if i+8 <= n {
			var x uint64
			for ; mask != 0; mask &= mask - 1 {
				x |= uint64(b[r]) << (8 * bits.TrailingZeros8(mask))
				r++
			}
			binary.LittleEndian.PutUint64(s[i:], binary.LittleEndian.Uint64(s[i:])^x)
			continue
		}
		for ; mask != 0; mask &= mask - 1 {
			s[i+bits.TrailingZeros8(mask)] ^= b[r]
			r++
		}
	}
	c.off += k + r
	return s
}

// each calls f on every state, in order, before any window is read.
func (p *packedStates) each(f func(enc []byte) error) error {
	if p.freed > 0 {
		return fmt.Errorf("internal error: a level read in part is read again")
	}
	var c packCursor
	for j := 0; j < p.n; j++ {
		if err := f(p.next(&c)); err != nil {
			return err
		}
	}
	return nil
}

// rewind starts reading the level again from its first state; it is
// refused once a window has given blocks back.
func (p *packedStates) rewind() error {
	if p.freed > 0 {
		return fmt.Errorf("internal error: a level read in part is read again")
	}
	p.at = packCursor{state: p.at.state[:0]}
	return nil
}

// giveBack gives back the blocks before the one at reads.
func (p *packedStates) giveBack() {
	for ; p.freed < p.at.block; p.freed++ {
		p.pool.put(p.blocks[p.freed][:levelBlock])
		p.blocks[p.freed] = nil
	}
}

// clear gives back every block and empties the level.
func (p *packedStates) clear() {
	for k := p.freed; k < len(p.blocks); k++ {
		p.pool.put(p.blocks[k][:levelBlock])
	}
	p.blocks, p.freed, p.n, p.last = p.blocks[:0], 0, 0, p.last[:0]
	p.at = packCursor{state: p.at.state[:0]}
}

// bytes is the memory the level's blocks hold.
func (p *packedStates) bytes() int64 { return int64(len(p.blocks)-p.freed) * levelBlock }
