package checker

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/ringcheck/mc/checker/internal/offheap"
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
// would not make it smaller, and the first state of each chunk of the
// level (chunkSize states) always is: a key, from which the worker that
// expands the chunk rebuilds its states by itself (unpack), the workers
// side by side. Records lie back to back in blocks from the level's
// blockPool and never span two; the blocks a window has passed are given
// back at once, where the successors find them.
//
// The states a round admits are staged as they are (add), then packed by
// the round's workers side by side, each a share of them against the
// states before (flush): packing, like unpacking, is no serial work of
// the commit.
type packedStates struct {
	pool *blockPool
	// blocks[k][:len] holds records; blocks before freed are given back.
	blocks [][]byte
	freed  int
	n      int
	// keys[c] is where the record of state c*chunkSize, a key, lies.
	keys []packPos
	// last is the encoding of the last state packed, against which the
	// first staged one is packed.
	last []byte
	// staged holds the encodings added since the last flush (add), shares
	// the records each worker packed, scratch one record packed by one.
	staged  [][]byte
	shares  []packShare
	scratch []byte
}

// packPos is where a record lies: blocks[block][off:].
type packPos struct{ block, off int }

// packCursor reads a level's records in order: the next is at
// blocks[block][off:]; state is the encoding read last.
type packCursor struct {
	block, off int
	state      []byte
}

// packShare is the records one worker packed: back to back in recs, each
// ending at ends[i].
type packShare struct {
	recs []byte
	ends []uint32
}

// packHeader bounds a record's length prefix: a length of at most
// levelBlock, times two, plus one, takes 3 uvarint bytes.
const packHeader = 3

// maxEncoding is the largest encoding of a state mc explores: a record
// holding it as it is fills a block.
const maxEncoding = levelBlock - packHeader

// add stages enc as the next state, which flush packs: enc must stay as
// it is until then. (The search adds its candidates' encodings, which last
// until the next round, and flushes at the end of each commit.)
func (p *packedStates) add(enc []byte) error {
	if len(enc) > maxEncoding {
		return fmt.Errorf("a state's encoding has %d bytes; mc supports at most %d", len(enc), maxEncoding)
	}
	p.staged = append(p.staged, enc)
	return nil
}

// stagedState is the i-th staged encoding, the last one packed for -1.
func (p *packedStates) stagedState(i int) []byte {
	if i < 0 {
		return p.last
	}
	return p.staged[i]
}

// flush packs the staged states, on up to workers goroutines, each a
// share of them, and appends their records to the blocks in order.
func (p *packedStates) flush(workers int) {
	staged := len(p.staged)
	if staged == 0 {
		return
	}
	// A share below a few thousand states is not worth a goroutine.
	parts := max(1, min(workers, staged/2048))
	for len(p.shares) < parts {
		p.shares = append(p.shares, packShare{})
	}
	first := p.n
	// record appends to dst the record of staged state i: a key at the
	// start of a chunk, else packed against the state before.
	record := func(dst []byte, i int) []byte {
		return packRecord(dst, p.stagedState(i), p.stagedState(i-1), (first+i)%chunkSize == 0)
	}
	if parts == 1 { // straight into the blocks
		for i := range staged {
			p.scratch = record(p.scratch[:0], i)
			p.place(p.scratch)
		}
		p.endFlush()
		return
	}
	var wg sync.WaitGroup
	for k := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh := &p.shares[k]
			sh.recs, sh.ends = sh.recs[:0], sh.ends[:0]
			for i := k * staged / parts; i < (k+1)*staged/parts; i++ {
				sh.recs = record(sh.recs, i)
				sh.ends = append(sh.ends, uint32(len(sh.recs)))
			}
		}()
	}
	wg.Wait()
	for k := range parts {
		sh := &p.shares[k]
		start := uint32(0)
		for _, end := range sh.ends {
			p.place(sh.recs[start:end])
			start = end
		}
	}
	p.endFlush()
}

// endFlush keeps the last state packed and lets the staged ones go.
func (p *packedStates) endFlush() {
	p.last = append(p.last[:0], p.staged[len(p.staged)-1]...)
	clear(p.staged) // the encodings are the caller's
	p.staged = p.staged[:0]
}

// place appends the record rec of the next state to the blocks, noting
// where a key lies.
func (p *packedStates) place(rec []byte) {
	k := len(p.blocks) - 1
	if k < p.freed || levelBlock-len(p.blocks[k]) < len(rec) {
		p.blocks = append(p.blocks, p.pool.get()[:0])
		k++
	}
	if p.n%chunkSize == 0 {
		p.keys = append(p.keys, packPos{block: k, off: len(p.blocks[k])})
	}
	p.blocks[k] = append(p.blocks[k], rec...)
	p.n++
}

// packRecord appends to dst the record of enc, packed against prev unless
// raw is set or packing would not make it smaller.
func packRecord(dst, enc, prev []byte, raw bool) []byte {
	start := len(dst)
	dst = binary.AppendUvarint(dst, uint64(len(enc))<<1)
	if !raw {
		body := len(dst)
		worst := len(enc) + (len(enc)+7)/8
		dst = slices.Grow(dst, worst)[:body+worst]
		if n := packXor(dst[body:], enc, prev); n < len(enc) {
			return dst[:body+n]
		}
		dst = dst[:body]
	}
	dst[start] |= 1
	return append(dst, enc...)
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

// rewind makes the level ready to be read: the staged states are packed
// first. It is refused once a window has given blocks back.
func (p *packedStates) rewind() error {
	if p.freed > 0 {
		return fmt.Errorf("internal error: a level read in part is read again")
	}
	p.flush(1)
	return nil
}

// unpack puts the states lo..hi-1, which lie in one chunk, back to back in
// dst and their ends in ends, rebuilding them from the chunk's key. dst is
// mapped outside the Go heap, as the blocks are (offheap), and grown there.
func (p *packedStates) unpack(lo, hi int, c *packCursor, dst []byte, ends []uint32) ([]byte, []uint32) {
	key := p.keys[lo/chunkSize]
	*c = packCursor{block: key.block, off: key.off, state: c.state[:0]}
	dst, ends = dst[:0], ends[:0]
	for j := lo / chunkSize * chunkSize; j < hi; j++ {
		enc := p.next(c)
		if j < lo {
			continue
		}
		if need := len(dst) + len(enc); need > cap(dst) {
			grown := offheap.Slice[byte](max(2*cap(dst), need, 1<<16))[:len(dst)]
			copy(grown, dst)
			offheap.Free(dst[:cap(dst)])
			dst = grown
		}
		dst = append(dst, enc...)
		ends = append(ends, uint32(len(dst)))
	}
	return dst, ends
}

// giveBack gives back the blocks that hold only states before upto: those
// before the block of the key of upto's chunk, or every block once upto
// passes the last state. No window reads them again.
func (p *packedStates) giveBack(upto int) {
	limit := len(p.blocks)
	if upto < p.n {
		limit = p.keys[upto/chunkSize].block
	}
	for ; p.freed < limit; p.freed++ {
		p.pool.put(p.blocks[p.freed][:levelBlock])
		p.blocks[p.freed] = nil
	}
}

// clear gives back every block and empties the level.
func (p *packedStates) clear() {
	for k := p.freed; k < len(p.blocks); k++ {
		p.pool.put(p.blocks[k][:levelBlock])
	}
	p.blocks, p.freed, p.n, p.last, p.keys = p.blocks[:0], 0, 0, p.last[:0], p.keys[:0]
	clear(p.staged)
	p.staged = p.staged[:0]
}

// bytes is the memory the level's blocks hold.
func (p *packedStates) bytes() int64 { return int64(len(p.blocks)-p.freed) * levelBlock }
