package store

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"slices"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// Delayed duplicate detection, as external-memory breadth-first search does
// it (disk mode). While a level is expanded nothing is looked up: every
// candidate successor goes, in frontier order, to a file (its fingerprint,
// parent, action, decided properties, measures and encoding), and its
// fingerprint with its position to a sort (keyRuns). When the level is
// expanded, the sort yields the fingerprints in order; the first candidate
// of each is looked up in the store, in key order and in chunks, and the
// store adds the new ones. A second pass over the file then commits the
// candidates found new, in order. Each fingerprint is looked up once per
// level, whatever the number of paths to it, and the memory needed is the
// sort's buffer and a bit per candidate, not the level's states.
//
// The commit order is the memory stores': candidates in frontier order,
// the first of each fingerprint winning. So the states, their indices,
// traces and every figure of a complete run are the same with every store.
// A run stopped early differs, as it does with timing: the memory stores
// commit each round, the disk store whole levels only (an interrupted
// level's candidates are dropped; a state limit is reached in the level's
// commit, after every step and end property of the level was checked).
//
// With a payload (DiskPayload: a termination measure's marks), each key
// carries its candidate's payload, and the merge, which yields a
// fingerprint's keys together, takes their union: a new state is admitted
// with the union of the payloads of every edge of the level to it, and a
// state stored before is reported once, with that union, as reached
// (DiskPayload.Reached). No edge of the level is kept in memory for its
// payload.
type dddLevel struct {
	keys *keyRuns
	file *os.File
	w    *bufio.Writer
	r    *bufio.Reader
	// sw and sr sum the candidates' file as written and as read back.
	sw *diskio.SumWriter
	sr *diskio.SumReader
	// n is the number of candidates added since the last reset.
	n uint32
	// fresh has bit i set when candidate i is new (after resolve).
	fresh []uint64
	// measures is the number of measures, whose values each record holds,
	// and maxEncoding the largest encoding a record may hold.
	measures, maxEncoding int
	// payload, if not nil, says where the candidates' payloads are.
	payload *DiskPayload
	// the chunk of distinct fingerprints being looked up, their first
	// candidates, the union of their candidates' payloads and the first one's
	// own, and the store's answers.
	fps        []uint64
	seqs       []uint32
	union, own []uint32
	isNew      []bool
	ids        []uint32
	rec        []byte
	// more lists the new states whose candidates of the level bring more
	// payload than the first one's own, by the first one's position; ranks
	// counts the new states before each word of fresh, to give a new
	// state its index.
	more  []seqPayload
	ranks []uint32
	// base is the number of states stored before the level.
	base uint32
	// one holds the candidate being admitted, read back from the file.
	one Candidates
}

// lookupChunk is the number of distinct fingerprints looked up in the store
// at once.
const lookupChunk = 1 << 16

// seqPayload is the payload of the candidate at position seq.
type seqPayload struct{ seq, bits uint32 }

// openDDD creates the candidates' files in the run's working directory dir,
// for a system with measures measures, the candidates' payloads where
// payload says, if not nil.
func openDDD(dir string, measures, maxEncoding int, payload *DiskPayload) (*dddLevel, error) {
	keys, err := openKeyRuns(filepath.Join(dir, fileKeys), payload != nil)
	if err != nil {
		return nil, err
	}
	f, err := diskio.Create(filepath.Join(dir, fileCandidates))
	if err != nil {
		keys.close()
		return nil, err
	}
	sw, sr := diskio.NewSumWriter(f), diskio.NewSumReader(f)
	d := &dddLevel{keys: keys, file: f, sw: sw, sr: sr, w: bufio.NewWriterSize(sw, diskio.Buffer), r: bufio.NewReaderSize(sr, diskio.Buffer), measures: measures, maxEncoding: maxEncoding, payload: payload}
	d.one.Add(0, 0, 0, 0, nil)
	d.one.Vals = make([]int, measures)
	return d, nil
}

// add appends c's candidates.
func (d *dddLevel) add(c *Candidates) error {
	for i, fp := range c.FPs {
		if d.n == ^uint32(0) {
			return fmt.Errorf("a level has more than %d candidates; mc supports at most that many", d.n)
		}
		var m uint32
		if d.payload != nil {
			m = uint32(c.Vals[i*d.measures+d.payload.At])
		}
		if err := d.keys.add(fp, d.n, m); err != nil {
			return err
		}
		d.rec = binary.LittleEndian.AppendUint64(d.rec[:0], fp)
		d.rec = binary.LittleEndian.AppendUint32(d.rec, c.Parents[i])
		d.rec = binary.LittleEndian.AppendUint32(d.rec, c.Actions[i])
		d.rec = binary.AppendUvarint(d.rec, c.Masks[i])
		for _, v := range c.Vals[i*d.measures : (i+1)*d.measures] {
			d.rec = binary.AppendVarint(d.rec, int64(v))
		}
		enc := c.Enc(i)
		d.rec = binary.AppendUvarint(d.rec, uint64(len(enc)))
		if _, err := d.w.Write(d.rec); err != nil {
			return err
		}
		if _, err := d.w.Write(enc); err != nil {
			return err
		}
		d.n++
	}
	return nil
}

// resolve asks st which of the candidates' fingerprints are new, adding
// them, and marks the first candidate of each new one.
func (d *dddLevel) resolve(st *runSet) error {
	words := int(d.n+63) / 64
	d.fresh = slices.Grow(d.fresh[:0], words)[:words]
	clear(d.fresh)
	d.fps, d.seqs, d.union, d.own, d.more = d.fps[:0], d.seqs[:0], d.union[:0], d.own[:0], d.more[:0]
	d.base = uint32(st.len())
	if err := st.begin(); err != nil {
		return err
	}
	have := false
	var last uint64
	err := d.keys.merge(func(k seqKey) error {
		if have && k.fp == last {
			d.union[len(d.union)-1] |= k.payload
			return nil
		}
		// A chunk is looked up once the next fingerprint shows that its
		// last one has all its keys.
		if len(d.fps) == lookupChunk {
			if err := d.lookup(st); err != nil {
				return err
			}
		}
		have, last = true, k.fp
		d.fps = append(d.fps, k.fp)
		d.seqs = append(d.seqs, k.seq)
		d.union = append(d.union, k.payload)
		d.own = append(d.own, k.payload)
		return nil
	})
	if err == nil {
		err = d.lookup(st)
	}
	if err != nil {
		st.close()
		return err
	}
	if d.payload == nil {
		return st.end(nil)
	}
	d.ranks = slices.Grow(d.ranks[:0], words)[:words]
	n := uint32(0)
	for w, word := range d.fresh {
		d.ranks[w] = n
		n += uint32(bits.OnesCount64(word))
	}
	slices.SortFunc(d.more, func(a, b seqPayload) int { return int(a.seq) - int(b.seq) })
	return st.end(d.idOf)
}

// idOf is the index of the new state whose first candidate is the seq-th.
func (d *dddLevel) idOf(seq uint32) uint32 {
	return d.base + d.ranks[seq/64] + uint32(bits.OnesCount64(d.fresh[seq/64]&(1<<(seq%64)-1)))
}

// lookup resolves the chunk of fingerprints gathered.
func (d *dddLevel) lookup(st *runSet) error {
	if len(d.fps) == 0 {
		return nil
	}
	if cap(d.isNew) < len(d.fps) {
		d.isNew, d.ids = make([]bool, lookupChunk), make([]uint32, lookupChunk)
	}
	isNew := d.isNew[:len(d.fps)]
	if err := st.addNew(d.fps, d.seqs, isNew, d.ids); err != nil {
		return err
	}
	for i, s := range d.seqs {
		switch {
		case isNew[i]:
			d.fresh[s/64] |= 1 << (s % 64)
			if d.union[i] != d.own[i] {
				d.more = append(d.more, seqPayload{seq: s, bits: d.union[i]})
			}
		case d.payload != nil && d.union[i] != 0:
			d.payload.Reached(d.ids[i], d.union[i])
		}
	}
	d.fps, d.seqs, d.union, d.own = d.fps[:0], d.seqs[:0], d.union[:0], d.own[:0]
	return nil
}

// each calls admit, in order, on every candidate marked new by resolve,
// until it returns false; the candidate is valid only during the call.
// Having read every candidate, it checks that the file's bytes are those
// written.
func (d *dddLevel) each(admit Admit) error {
	if err := d.w.Flush(); err != nil {
		return err
	}
	if _, err := d.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	d.r.Reset(d.sr)
	d.sr.Reset()
	c := &d.one
	more := d.more
	var fixed [16]byte
	for s := uint32(0); s < d.n; s++ {
		if _, err := io.ReadFull(d.r, fixed[:]); err != nil {
			return fmt.Errorf("reading candidates: %w", err)
		}
		mask, err := binary.ReadUvarint(d.r)
		if err != nil {
			return fmt.Errorf("reading candidates: %w", err)
		}
		for m := range c.Vals {
			v, err := binary.ReadVarint(d.r)
			if err != nil {
				return fmt.Errorf("reading candidates: %w", err)
			}
			c.Vals[m] = int(v)
		}
		size, err := binary.ReadUvarint(d.r)
		if err != nil || size > uint64(d.maxEncoding) {
			return fmt.Errorf("reading candidates: bad encoding length (%v)", err)
		}
		if d.fresh[s/64]&(1<<(s%64)) == 0 {
			if _, err := d.r.Discard(int(size)); err != nil {
				return fmt.Errorf("reading candidates: %w", err)
			}
			continue
		}
		if uint64(cap(c.Data)) < size {
			c.Data = make([]byte, size, d.maxEncoding)
		}
		c.Data, c.ends[0] = c.Data[:size], uint32(size)
		if _, err := io.ReadFull(d.r, c.Data); err != nil {
			return fmt.Errorf("reading candidates: %w", err)
		}
		c.FPs[0] = binary.LittleEndian.Uint64(fixed[:8])
		c.Parents[0] = binary.LittleEndian.Uint32(fixed[8:12])
		c.Actions[0] = binary.LittleEndian.Uint32(fixed[12:16])
		c.Masks[0] = mask
		if len(more) > 0 && more[0].seq == s {
			c.Vals[d.payload.At] = int(more[0].bits)
			more = more[1:]
		}
		if !admit(c, 0) {
			return nil
		}
	}
	return diskio.CheckSum("candidates file "+d.file.Name(), d.sr.Sum(), d.sw.Sum())
}

// reset empties the candidates for the next level.
func (d *dddLevel) reset() error {
	d.n = 0
	if err := diskio.Empty(d.file, d.w, d.sw); err != nil {
		return err
	}
	return d.keys.reset()
}

// bytes is the memory the candidates hold.
func (d *dddLevel) bytes() int64 {
	return d.keys.bytes() + 2*diskio.Buffer + int64(cap(d.fresh))*8 + int64(cap(d.ranks))*4 + int64(cap(d.fps))*20 +
		int64(cap(d.isNew))*5 + int64(cap(d.more))*8
}

func (d *dddLevel) close() error {
	err := d.file.Close()
	if kerr := d.keys.close(); err == nil {
		err = kerr
	}
	return err
}
