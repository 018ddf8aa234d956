package store

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// keyRuns sorts the (fingerprint, sequence number) keys of a level's
// candidates in bounded memory, as an external merge sort does: keys are
// gathered in a buffer of runKeys entries; a full buffer is sorted and
// written to a file as a run; merge then reads the runs back in parallel,
// through small buffers, as one sequence ordered by fingerprint and, among
// equal fingerprints, by sequence number: the first candidate of each
// fingerprint comes first. Sequence numbers are given in increasing order,
// so a later run holds only later ones. Each run's bytes are summed as
// written, and checked when merge has read the run back (diskio.CheckSum).
// With a payload, each key also carries its candidate's (deferred.go).
type keyRuns struct {
	payload bool
	buf     []seqKey
	file    *os.File
	w       *bufio.Writer
	sw      *diskio.SumWriter
	// ends[r] is the position, in keys, just after run r in the file, and
	// sums[r] the sum of its bytes.
	ends []int64
	sums []uint64
	// readers are merge's, kept for the next level.
	readers []*runReader
}

// seqKey is one candidate's fingerprint and its position in the level's
// candidates, and, if the store carries them, its payload.
type seqKey struct {
	fp      uint64
	seq     uint32
	payload uint32
}

const (
	// runKeys is the sort buffer's size in keys (16 bytes each in memory,
	// 12 in a run, 16 with a payload).
	runKeys = 1 << 18
	// runKeyBytes is a key's size in a run file, without and with a
	// payload.
	runKeyBytes        = 12
	runKeyPayloadBytes = 16
	// runReadBuffer is the read buffer of each run during the merge.
	runReadBuffer = 32 << 10
)

func openKeyRuns(path string, payload bool) (*keyRuns, error) {
	f, err := diskio.Create(path)
	if err != nil {
		return nil, err
	}
	sw := diskio.NewSumWriter(f)
	return &keyRuns{payload: payload, file: f, sw: sw, w: bufio.NewWriterSize(sw, diskio.Buffer)}, nil
}

// keyBytes is a key's size in a run file.
func (k *keyRuns) keyBytes() int64 {
	if k.payload {
		return runKeyPayloadBytes
	}
	return runKeyBytes
}

// add appends a key; its sequence number must exceed every one added since
// the last reset.
func (k *keyRuns) add(fp uint64, seq, bits uint32) error {
	if k.buf == nil {
		k.buf = make([]seqKey, 0, runKeys)
	}
	k.buf = append(k.buf, seqKey{fp: fp, seq: seq, payload: bits})
	if len(k.buf) == cap(k.buf) {
		return k.spill()
	}
	return nil
}

// spill sorts the buffer and writes it as the next run.
func (k *keyRuns) spill() error {
	sortKeys(k.buf)
	sum := xxhash.New()
	rec := make([]byte, 0, k.keyBytes()*1024)
	for i, x := range k.buf {
		rec = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint64(rec, x.fp), x.seq)
		if k.payload {
			rec = binary.LittleEndian.AppendUint32(rec, x.payload)
		}
		if len(rec) == cap(rec) || i == len(k.buf)-1 {
			sum.Write(rec)
			if _, err := k.w.Write(rec); err != nil {
				return err
			}
			rec = rec[:0]
		}
	}
	k.sums = append(k.sums, sum.Sum64())
	last := int64(0)
	if len(k.ends) > 0 {
		last = k.ends[len(k.ends)-1]
	}
	k.ends = append(k.ends, last+int64(len(k.buf)))
	k.buf = k.buf[:0]
	return nil
}

// sortKeys sorts keys by fingerprint, then sequence number. Fingerprints
// are hashes, spread evenly, so a radix sort on their top bytes (American
// flag sort: in place, a byte at a time, most significant first) leaves
// buckets of a few keys after two passes, which insertion sort finishes.
func sortKeys(keys []seqKey) { radixSort(keys, 56) }

func radixSort(keys []seqKey, shift int) {
	if len(keys) <= 32 || shift < 0 {
		if len(keys) > 32 { // equal fingerprints: order by position
			slices.SortFunc(keys, cmpKeys)
			return
		}
		for i := 1; i < len(keys); i++ {
			for j := i; j > 0 && cmpKeys(keys[j], keys[j-1]) < 0; j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
			}
		}
		return
	}
	var next, end [256]int
	for _, k := range keys {
		end[byte(k.fp>>shift)]++
	}
	pos := 0
	for b := range end {
		next[b] = pos
		pos += end[b]
		end[b] = pos
	}
	for b := range next {
		for next[b] < end[b] {
			x := keys[next[b]]
			xb := byte(x.fp >> shift)
			for int(xb) != b {
				keys[next[xb]], x = x, keys[next[xb]]
				next[xb]++
				xb = byte(x.fp >> shift)
			}
			keys[next[b]] = x
			next[b]++
		}
	}
	start := 0
	for b := range end {
		radixSort(keys[start:end[b]], shift-8)
		start = end[b]
	}
}

func cmpKeys(a, b seqKey) int {
	switch {
	case a.fp < b.fp:
		return -1
	case a.fp > b.fp:
		return 1
	case a.seq < b.seq:
		return -1
	case a.seq > b.seq:
		return 1
	}
	return 0
}

// merge calls f on every key added since the last reset, in order, then
// empties the runs. The keys of one run are in memory only when there is
// just one.
func (k *keyRuns) merge(f func(seqKey) error) error {
	if len(k.ends) == 0 {
		sortKeys(k.buf)
		for _, x := range k.buf {
			if err := f(x); err != nil {
				return err
			}
		}
		return k.reset()
	}
	if len(k.buf) > 0 {
		if err := k.spill(); err != nil {
			return err
		}
	}
	if err := k.w.Flush(); err != nil {
		return err
	}
	h := make(runHeap, 0, len(k.ends))
	for r := range k.ends {
		if r == len(k.readers) {
			k.readers = append(k.readers, &runReader{r: bufio.NewReaderSize(nil, runReadBuffer)})
		}
		rr := k.readers[r]
		start := int64(0)
		if r > 0 {
			start = k.ends[r-1]
		}
		size := k.keyBytes()
		rr.sr = diskio.NewSumReader(io.NewSectionReader(k.file, start*size, (k.ends[r]-start)*size))
		rr.r.Reset(rr.sr)
		rr.left, rr.want, rr.name = k.ends[r]-start, k.sums[r], fmt.Sprintf("sorted run %d of %s", r, k.file.Name())
		rr.rec = rr.buf[:size]
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, rr)
		}
	}
	h.init()
	for len(h) > 0 {
		rr := h[0]
		if err := f(rr.head); err != nil {
			return err
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			h.fix0()
		} else {
			h.pop0()
		}
	}
	return k.reset()
}

// reset empties the buffer and the run file.
func (k *keyRuns) reset() error {
	k.buf = k.buf[:0]
	k.ends, k.sums = k.ends[:0], k.sums[:0]
	return diskio.Empty(k.file, k.w, k.sw)
}

// bytes is the memory the sort holds.
func (k *keyRuns) bytes() int64 {
	return int64(cap(k.buf))*16 + int64(len(k.readers))*runReadBuffer + diskio.Buffer
}

func (k *keyRuns) close() error { return k.file.Close() }

// runReader reads one run; head is its current key. sr sums the run's
// bytes as read, which, once the run is read whole, must be want.
type runReader struct {
	r    *bufio.Reader
	sr   *diskio.SumReader
	want uint64
	name string
	left int64
	head seqKey
	// rec is the part of buf a key takes.
	rec []byte
	buf [runKeyPayloadBytes]byte
}

func (rr *runReader) next() (bool, error) {
	if rr.left == 0 {
		return false, diskio.CheckSum(rr.name, rr.sr.Sum(), rr.want)
	}
	if _, err := io.ReadFull(rr.r, rr.rec); err != nil {
		return false, fmt.Errorf("reading a sorted run: %w", err)
	}
	rr.left--
	rr.head = seqKey{fp: binary.LittleEndian.Uint64(rr.rec[:8]), seq: binary.LittleEndian.Uint32(rr.rec[8:])}
	if len(rr.rec) == runKeyPayloadBytes {
		rr.head.payload = binary.LittleEndian.Uint32(rr.rec[12:])
	}
	return true, nil
}

// runHeap is a binary min-heap of runs by their head key.
type runHeap []*runReader

func (h runHeap) less(i, j int) bool { return cmpKeys(h[i].head, h[j].head) < 0 }

func (h runHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// fix0 restores the heap after the root's key grew.
func (h runHeap) fix0() { h.down(0) }

// pop0 removes the root.
func (h *runHeap) pop0() {
	old := *h
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
}

func (h runHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
