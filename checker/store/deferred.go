package store

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"mc/checker/internal/diskio"
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
	// the chunk of distinct fingerprints being looked up, their first
	// candidates and the store's answers.
	fps   []uint64
	seqs  []uint32
	isNew []bool
	rec   []byte
	// one holds the candidate being admitted, read back from the file.
	one Candidates
}

// lookupChunk is the number of distinct fingerprints looked up in the store
// at once.
const lookupChunk = 1 << 16

// openDDD creates the candidates' files in the run's working directory dir,
// for a system with measures measures.
func openDDD(dir string, measures, maxEncoding int) (*dddLevel, error) {
	keys, err := openKeyRuns(filepath.Join(dir, fileKeys))
	if err != nil {
		return nil, err
	}
	f, err := diskio.Create(filepath.Join(dir, fileCandidates))
	if err != nil {
		keys.close()
		return nil, err
	}
	sw, sr := diskio.NewSumWriter(f), diskio.NewSumReader(f)
	d := &dddLevel{keys: keys, file: f, sw: sw, sr: sr, w: bufio.NewWriterSize(sw, diskio.Buffer), r: bufio.NewReaderSize(sr, diskio.Buffer), measures: measures, maxEncoding: maxEncoding}
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
		if err := d.keys.add(fp, d.n); err != nil {
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
	d.fps, d.seqs = d.fps[:0], d.seqs[:0]
	if err := st.begin(); err != nil {
		return err
	}
	have := false
	var last uint64
	err := d.keys.merge(func(k seqKey) error {
		if have && k.fp == last {
			return nil
		}
		have, last = true, k.fp
		d.fps = append(d.fps, k.fp)
		d.seqs = append(d.seqs, k.seq)
		if len(d.fps) == lookupChunk {
			return d.lookup(st)
		}
		return nil
	})
	if err == nil {
		err = d.lookup(st)
	}
	if err != nil {
		st.close()
		return err
	}
	return st.end()
}

// lookup resolves the chunk of fingerprints gathered.
func (d *dddLevel) lookup(st *runSet) error {
	if len(d.fps) == 0 {
		return nil
	}
	if cap(d.isNew) < len(d.fps) {
		d.isNew = make([]bool, lookupChunk)
	}
	isNew := d.isNew[:len(d.fps)]
	if err := st.addNew(d.fps, isNew); err != nil {
		return err
	}
	for i, s := range d.seqs {
		if isNew[i] {
			d.fresh[s/64] |= 1 << (s % 64)
		}
	}
	d.fps, d.seqs = d.fps[:0], d.seqs[:0]
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
	return d.keys.bytes() + 2*diskio.Buffer + int64(cap(d.fresh))*8 + int64(cap(d.fps))*12 + int64(cap(d.isNew))
}

func (d *dddLevel) close() error {
	err := d.file.Close()
	if kerr := d.keys.close(); err == nil {
		err = kerr
	}
	return err
}
