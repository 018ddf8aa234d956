package checker

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/offheap"
)

// level is one breadth-first level: the encodings of its states. States get
// their indices in the order they are committed, so a level's indices are
// consecutive from first and need not be stored.
//
// A packed level (packed not nil) keeps its encodings in memory,
// compressed (levelpack.go), and like a spilled one holds in blocks, as
// they are, only the window of states a round is expanding. A plain level
// keeps them as they are, for an extension that reads any state of the
// frontier before a checkpoint (extension.Level):
// the encodings lie back to back in blocks of levelBlock bytes from a
// blockPool; a state that does not fit in the rest of a block starts
// the next one. Once a round of the frontier is expanded its blocks go back
// to the pool (release), where the successors find them, so the two levels
// together hold about the larger one's bytes, not the sum.
//
// A spilled level (disk mode) writes the encodings to a file instead, as
// length-prefixed records, and holds in blocks only the window of states a
// round is expanding, read back in order by window. The file's bytes are
// summed as written and as read back: a level read whole that does not
// match is refused (diskio.CheckSum).
type level struct {
	first uint32
	pool  *blockPool
	// packed holds the states of a packed level.
	packed *packedStates
	// blocks[k] holds bytes [k*levelBlock, (k+1)*levelBlock) of the level,
	// or of the window if spilled; blocks before freed are released (nil).
	blocks [][]byte
	freed  int
	// ends[j] is the position just after state wlo+j; size is the next free
	// position.
	ends []uint32
	size uint32

	file *os.File
	w    *bufio.Writer
	r    *bufio.Reader
	sw   *diskio.SumWriter
	sr   *diskio.SumReader
	n    int // states in a spilled level
	wlo  int // index of the window's first state
	// whi ends a packed level's window, whose chunks are rebuilt, each by
	// the first worker to read it (state), in chunks.
	whi    int
	chunks []unpacked
}

// unpacked is one chunk of a packed level's window, its states from lo
// rebuilt (packedStates.unpack) back to back in data, outside the Go heap,
// each ending at ends[i]; ready once rebuilt.
type unpacked struct {
	ready bool
	lo    int
	data  []byte
	ends  []uint32
	at    packCursor
}

// levelBlock is the size of a level's blocks, and so bounds the largest
// encoding of a state mc can explore (maxEncoding).
const levelBlock = 1 << 18

// blockPool recycles level blocks between the frontier and the successors.
// It keeps a few spare blocks and unmaps the others.
type blockPool struct{ spare [][]byte }

const spareBlocks = 4

func (p *blockPool) get() []byte {
	if n := len(p.spare); n > 0 {
		b := p.spare[n-1]
		p.spare = p.spare[:n-1]
		return b
	}
	return offheap.Slice[byte](levelBlock)
}

func (p *blockPool) put(b []byte) {
	if len(p.spare) < spareBlocks {
		p.spare = append(p.spare, b)
	} else {
		offheap.Free(b)
	}
}

// close unmaps the spare blocks.
func (p *blockPool) close() {
	for _, b := range p.spare {
		offheap.Free(b)
	}
	p.spare = nil
}

// packedLevel returns an empty packed level.
func packedLevel(pool *blockPool) *level {
	return &level{pool: pool, packed: &packedStates{pool: pool}}
}

// spillLevel returns an empty level kept in the file path.
func spillLevel(path string, pool *blockPool) (*level, error) {
	f, err := diskio.Create(path)
	if err != nil {
		return nil, err
	}
	sw, sr := diskio.NewSumWriter(f), diskio.NewSumReader(f)
	return &level{pool: pool, file: f, sw: sw, sr: sr, w: bufio.NewWriterSize(sw, diskio.Buffer), r: bufio.NewReaderSize(sr, diskio.Buffer)}, nil
}

func (l *level) len() int {
	if l.file != nil {
		return l.n
	}
	if l.packed != nil {
		return l.packed.n + len(l.packed.staged)
	}
	return len(l.ends)
}

// First, State and Len are the level as a search extension reads it
// (extension.Level).
func (l *level) First() uint32      { return l.first }
func (l *level) State(j int) []byte { return l.state(j) }
func (l *level) Len() int           { return l.len() }

// id is the index of the level's j-th state.
func (l *level) id(j int) uint32 { return l.first + uint32(j) }

// add appends the encoding of the state with the next index; a packed
// level holds enc itself until the next flush (packedStates.add).
func (l *level) add(enc []byte) error {
	if l.packed != nil {
		return l.packed.add(enc)
	}
	if l.file == nil {
		slot, err := l.reserve(len(enc))
		copy(slot, enc)
		return err
	}
	var hdr [binary.MaxVarintLen64]byte
	if _, err := l.w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(enc)))]); err != nil {
		return err
	}
	if _, err := l.w.Write(enc); err != nil {
		return err
	}
	l.n++
	return nil
}

// reserve makes room for the next state's encoding of n bytes and returns it.
func (l *level) reserve(n int) ([]byte, error) {
	if n > maxEncoding {
		return nil, fmt.Errorf("a state's encoding has %d bytes; mc supports at most %d", n, maxEncoding)
	}
	pos := uint64(l.size)
	if rest := levelBlock - pos%levelBlock; uint64(n) > rest {
		pos += rest
	}
	if pos+uint64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("a level's states take more than 4 GiB; use the disk store")
	}
	k := int(pos / levelBlock)
	for len(l.blocks) <= k {
		l.blocks = append(l.blocks, l.pool.get())
	}
	l.size = uint32(pos) + uint32(n)
	l.ends = append(l.ends, l.size)
	off := int(pos % levelBlock)
	return l.blocks[k][off : off+n], nil
}

// flush packs the states a round added to a packed level on up to workers
// goroutines (packedStates.flush).
func (l *level) flush(workers int) {
	if l.packed != nil {
		l.packed.flush(workers)
	}
}

// state is the encoding of the level's j-th state, which must lie in the
// current window for a spilled or packed level, and not be released. The
// states of one chunk of a packed level's window are read by one
// goroutine, which rebuilds them.
func (l *level) state(j int) []byte {
	if l.packed != nil {
		return l.packedState(j)
	}
	j -= l.wlo
	start, end := uint32(0), l.ends[j]
	if j > 0 {
		start = l.ends[j-1]
	}
	if start == end {
		return nil
	}
	k := (end - 1) / levelBlock
	// A state lies in one block: if the one before ended in an earlier
	// block, this one starts block k.
	start = max(start, k*levelBlock)
	return l.blocks[k][start-k*levelBlock : end-k*levelBlock]
}

// packedState is state for a packed level: the chunk of the window that
// holds state j is rebuilt on its first read.
func (l *level) packedState(j int) []byte {
	c := j / chunkSize
	u := &l.chunks[c-l.wlo/chunkSize]
	if !u.ready {
		u.lo = max(l.wlo, c*chunkSize)
		u.data, u.ends = l.packed.unpack(u.lo, min(l.whi, (c+1)*chunkSize), &u.at, u.data, u.ends)
		u.ready = true
	}
	i, start := j-u.lo, uint32(0)
	if i > 0 {
		start = u.ends[i-1]
	}
	return u.data[start:u.ends[i]]
}

// release gives back the blocks that hold only states before upto, which
// must not be asked for again. It does nothing for a spilled level, whose
// window reuses its blocks.
func (l *level) release(upto int) {
	if l.packed != nil {
		l.packed.giveBack(upto)
		return
	}
	if l.file != nil {
		return
	}
	limit := len(l.blocks)
	if upto < len(l.ends) && upto > 0 {
		limit = int(l.ends[upto-1] / levelBlock)
	} else if upto <= 0 {
		limit = 0
	}
	for ; l.freed < limit; l.freed++ {
		l.pool.put(l.blocks[l.freed])
		l.blocks[l.freed] = nil
	}
}

// recycle gives back every block and empties the positions.
func (l *level) recycle() {
	for k := l.freed; k < len(l.blocks); k++ {
		l.pool.put(l.blocks[k])
	}
	l.blocks, l.freed, l.ends, l.size = l.blocks[:0], 0, l.ends[:0], 0
}

// bytes is the memory the level's blocks hold.
func (l *level) bytes() int64 {
	b := int64(len(l.blocks)-l.freed) * levelBlock
	if l.packed != nil {
		b += l.packed.bytes()
		for _, u := range l.chunks {
			b += int64(cap(u.data) + 4*cap(u.ends))
		}
	}
	return b
}

// finish ends writing: a spilled level is flushed and rewound for reading,
// a packed one rewound.
func (l *level) finish() error {
	if l.packed != nil {
		l.wlo, l.whi = 0, 0
		l.recycle()
		return l.packed.rewind()
	}
	if l.file == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return err
	}
	if _, err := l.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	l.r.Reset(l.sr)
	l.sr.Reset()
	l.wlo = 0
	l.recycle()
	return nil
}

// window loads states lo..hi-1 of a spilled or packed level; windows must
// be asked for in order. It does nothing for a plain level.
func (l *level) window(lo, hi int) error {
	if l.file == nil && l.packed == nil {
		return nil
	}
	if l.packed != nil {
		return l.packedWindow(lo, hi)
	}
	if lo != l.wlo+len(l.ends) {
		return fmt.Errorf("internal error: level window %d..%d out of order", lo, hi)
	}
	l.recycle()
	l.wlo = lo
	for j := lo; j < hi; j++ {
		size, err := binary.ReadUvarint(l.r)
		if err != nil {
			return fmt.Errorf("reading level: %w", err)
		}
		slot, err := l.reserve(int(min(size, maxEncoding+1)))
		if err != nil {
			return err
		}
		if _, err := io.ReadFull(l.r, slot); err != nil {
			return fmt.Errorf("reading level: %w", err)
		}
	}
	if hi == l.n { // read whole: every byte written has been read back
		return diskio.CheckSum("level file "+l.file.Name(), l.sr.Sum(), l.sw.Sum())
	}
	return nil
}

// packedWindow is window for a packed level: it gives back the blocks
// before the window and leaves its chunks to be rebuilt as they are read.
func (l *level) packedWindow(lo, hi int) error {
	if lo != l.whi || hi < lo || hi > l.packed.n {
		return fmt.Errorf("internal error: level window %d..%d out of order", lo, hi)
	}
	l.wlo, l.whi = lo, hi
	chunks := 0
	if hi > lo {
		chunks = (hi-1)/chunkSize - lo/chunkSize + 1
	}
	for len(l.chunks) < chunks {
		l.chunks = append(l.chunks, unpacked{})
	}
	for i := range l.chunks {
		l.chunks[i].ready = false
	}
	return nil
}

// reset empties the level for states numbered from first.
func (l *level) reset(first uint32) error {
	l.recycle()
	if l.packed != nil {
		l.packed.clear()
	}
	l.first, l.wlo, l.whi = first, 0, 0
	if l.file == nil {
		return nil
	}
	l.n = 0
	return diskio.Empty(l.file, l.w, l.sw)
}

func (l *level) close() error {
	l.recycle()
	if l.packed != nil {
		l.packed.clear()
	}
	for i := range l.chunks {
		offheap.Free(l.chunks[i].data[:cap(l.chunks[i].data)])
	}
	l.chunks = nil
	if l.file == nil {
		return nil
	}
	return l.file.Close()
}

// each calls f on every state of a finished level, in order, and leaves a
// spilled level rewound for reading.
func (l *level) each(f func(enc []byte) error) error {
	if l.packed != nil {
		return l.packed.each(f)
	}
	if l.file == nil {
		for j := 0; j < l.len(); j++ {
			if err := f(l.state(j)); err != nil {
				return err
			}
		}
		return nil
	}
	n := l.n
	if err := l.finish(); err != nil {
		return err
	}
	for j := 0; j < n; j++ {
		if err := l.window(j, j+1); err != nil {
			return err
		}
		if err := f(l.state(j)); err != nil {
			return err
		}
	}
	return l.finish()
}
