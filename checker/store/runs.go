package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// runSet is the visited set on disk: sorted runs of fingerprints, each a
// file of little-endian 64-bit words in increasing order, as external-memory
// breadth-first search keeps it. It is asked once per level (delayed
// duplicate detection, deferred.go): between begin and end, the level's
// candidate fingerprints come in increasing order, without repeats, and a
// cursor per run walks forward to each; those in no run are new, and are
// written, already sorted, as the level's run. A level thus reads each run
// at most once, skipping the blocks no candidate falls in, and writes only
// its new fingerprints.
//
// Runs are kept few by merging: after a level, while the run before the
// newest is less than twice its size, the two are merged into one, so sizes
// at least double from newest to oldest and a store of n fingerprints has
// about log₂ n runs; a fingerprint is rewritten about that many times.
//
// Memory is a read buffer per run and a sparse index (the first fingerprint
// of each block of runBlock words), whatever the number of states.
//
// A store that carries a payload (deferred.go: a termination measure's marks) keeps
// each state's index beside its fingerprint, a record of 12 bytes instead
// of 8, so that a level's lookups also say which state a candidate already
// stored is. The level's new run is written with each state's position
// among the level's candidates, which becomes its index only once the whole
// level is resolved (the indices follow the candidates' order, not the
// fingerprints'): end rewrites it once, with the indices.
//
// Runs are immutable and named run-<id>. A checkpoint lists the runs of its
// level (manifest), each with the sum of its bytes; a run merged away after
// it is kept until the next checkpoint no longer needs it, so a resumed run
// finds the store as it was and deletes what came later. A run is checked
// against its sum whenever it is read whole: when a resume rebuilds its
// index, and when it is merged.
type runSet struct {
	dir string
	// ids says each record holds the state's index after its fingerprint.
	ids  bool
	runs []*fpRun
	n    int64
	next int
	// keep says merged runs are kept until the next checkpoint (retired),
	// for a run that checkpoints.
	keep    bool
	retired []*fpRun
	// During a level: the cursors on the runs and the new run.
	cursors []*runCursor
	out     *runWriter
}

// fpRun is one sorted run: its file, its number of fingerprints, the sum
// of its bytes, and the first fingerprint of each block, for skipping.
type fpRun struct {
	name   string
	n      int64
	sum    uint64
	index  []uint64
	synced bool
}

const (
	// runBlock is the number of fingerprints in a block of a run: the unit
	// of the sparse index and of reads.
	runBlock = 4096
	// runWriteBuffer is the write buffer of a run being written.
	runWriteBuffer = 256 << 10
)

// openRunSet opens the store in dir, a directory of the run's working
// directory, creating it if needed: empty for a fresh run, as a checkpoint
// left it for a resumed one, which then calls restore. With ids, each
// record holds the state's index too.
func openRunSet(dir string, ids bool) (*runSet, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("opening the disk store in %s: %w", dir, err)
	}
	return &runSet{dir: dir, ids: ids}, nil
}

// recordBytes is the size of a record: a fingerprint, and an index if the
// set keeps them.
func (d *runSet) recordBytes() int64 {
	if d.ids {
		return 12
	}
	return 8
}

// removeRunsExcept deletes the run files in the directory not named in keep.
func (d *runSet) removeRunsExcept(keep map[string]bool) error {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "run-") && !keep[e.Name()] {
			if err := os.Remove(filepath.Join(d.dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// manifest lists the runs, oldest first, with their sizes and sums.
func (d *runSet) manifest() []runEntry {
	m := make([]runEntry, len(d.runs))
	for i, r := range d.runs {
		m[i] = runEntry{name: r.name, n: r.n, sum: r.sum}
	}
	return m
}

// runEntry names one run of a manifest.
type runEntry struct {
	name string
	n    int64
	sum  uint64
}

// restore makes the store what manifest lists, deleting every other run
// file, and rebuilds the runs' indices. It says what is wrong if a listed
// run is missing, of another size, or not the bytes written.
func (d *runSet) restore(manifest []runEntry) error {
	keep := map[string]bool{}
	d.runs, d.retired, d.n = nil, nil, 0
	for _, m := range manifest {
		id, ok := runID(m.name)
		if !ok || keep[m.name] || m.n < 0 || m.n > 1<<50 {
			return fmt.Errorf("run %q of %d fingerprints is not a run the store writes", m.name, m.n)
		}
		keep[m.name] = true
		d.next = max(d.next, id+1)
		r := &fpRun{name: m.name, n: m.n, sum: m.sum, synced: true}
		if err := d.buildIndex(r); err != nil {
			return err
		}
		d.runs = append(d.runs, r)
		d.n += m.n
	}
	return d.removeRunsExcept(keep)
}

func runID(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "run-")
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil && id >= 0 && strconv.Itoa(id) == s
}

// buildIndex reads run r, checking its size, order and sum, and records
// the first fingerprint of each block.
func (d *runSet) buildIndex(r *fpRun) error {
	f, err := os.Open(filepath.Join(d.dir, r.name))
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != r.n*d.recordBytes() {
		return fmt.Errorf("run %s has %d bytes, want %d", r.name, st.Size(), r.n*d.recordBytes())
	}
	c := d.cursor(f, r)
	c.summing()
	r.index = r.index[:0]
	var last uint64
	for i := int64(0); i < r.n; i++ {
		fp, _, err := c.at(i)
		if err != nil {
			return err
		}
		if i > 0 && fp <= last {
			return fmt.Errorf("run %s is not sorted at %d", r.name, i)
		}
		if i%runBlock == 0 {
			r.index = append(r.index, fp)
		}
		last = fp
	}
	return c.checkSum()
}

// cursor is a cursor on run r, open as f.
func (d *runSet) cursor(f *os.File, r *fpRun) *runCursor {
	return &runCursor{f: f, r: r, blk: -1, ids: d.ids}
}

// openCursors opens a cursor on every run.
func (d *runSet) openCursors() error {
	d.cursors = d.cursors[:0]
	for _, r := range d.runs {
		f, err := os.Open(filepath.Join(d.dir, r.name))
		if err != nil {
			d.closeCursors()
			return err
		}
		d.cursors = append(d.cursors, d.cursor(f, r))
	}
	return nil
}

// begin starts a level's lookups.
func (d *runSet) begin() error {
	if err := d.openCursors(); err != nil {
		return err
	}
	w, err := d.create()
	if err != nil {
		d.closeCursors()
		return err
	}
	d.out = w
	return nil
}

// addNew stores those of fps that no run holds, and sets isNew[i] for each
// of them; for the others, in a set that keeps indices, it sets ids[i] to
// the state's index. A new one is written with seqs[i], its position among
// the level's candidates, for end to turn into its index. Between begin and
// end, fingerprints must come in increasing order, each once.
func (d *runSet) addNew(fps []uint64, seqs []uint32, isNew []bool, ids []uint32) error {
	for i, fp := range fps {
		id, seen, err := d.find(fp)
		if err != nil {
			return err
		}
		isNew[i] = !seen
		if seen {
			ids[i] = id
		} else if err := d.out.add(fp, seqs[i]); err != nil {
			return err
		}
	}
	return nil
}

// find looks fp up in the runs, through the cursors.
func (d *runSet) find(fp uint64) (id uint32, ok bool, err error) {
	for _, c := range d.cursors {
		ok, err := c.seek(fp)
		if err != nil || ok {
			return c.id(), ok, err
		}
	}
	return NotStored, false, nil
}

// locate sets ids[i] to the index of the state with fingerprint fps[i], or
// NotStored, in a set that keeps indices, between levels; fps must be
// increasing.
func (d *runSet) locate(fps []uint64, ids []uint32) error {
	if err := d.openCursors(); err != nil {
		return err
	}
	defer d.closeCursors()
	for i, fp := range fps {
		id, _, err := d.find(fp)
		if err != nil {
			return err
		}
		ids[i] = id
	}
	return nil
}

// end finishes the level: its new fingerprints become the newest run, and
// runs are merged as the type's doc says. In a set that keeps indices,
// idOf gives the index of the state whose first candidate is the level's
// seq-th.
func (d *runSet) end(idOf func(seq uint32) uint32) error {
	d.closeCursors()
	r, err := d.out.finish()
	d.out = nil
	if err != nil {
		return err
	}
	if r.n == 0 {
		return os.Remove(filepath.Join(d.dir, r.name))
	}
	if d.ids {
		if r, err = d.relabel(r, idOf); err != nil {
			return err
		}
	}
	d.runs = append(d.runs, r)
	d.n += r.n
	for k := len(d.runs); k >= 2 && d.runs[k-2].n < 2*d.runs[k-1].n; k = len(d.runs) {
		merged, err := d.merge(d.runs[k-2], d.runs[k-1])
		if err != nil {
			return err
		}
		if err := d.retire(d.runs[k-2], d.runs[k-1]); err != nil {
			return err
		}
		d.runs = append(d.runs[:k-2], merged)
	}
	return nil
}

// relabel rewrites run r, written with positions among the level's
// candidates, with the indices idOf gives them.
func (d *runSet) relabel(r *fpRun, idOf func(seq uint32) uint32) (*fpRun, error) {
	w, err := d.create()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(d.dir, r.name))
	if err != nil {
		w.abort()
		return nil, err
	}
	defer f.Close()
	c := d.cursor(f, r)
	c.summing()
	for i := int64(0); i < r.n && err == nil; i++ {
		var fp uint64
		var seq uint32
		if fp, seq, err = c.at(i); err == nil {
			err = w.add(fp, idOf(seq))
		}
	}
	if err == nil {
		err = c.checkSum()
	}
	if err == nil {
		err = os.Remove(filepath.Join(d.dir, r.name))
	}
	if err != nil {
		w.abort()
		return nil, err
	}
	return w.finish()
}

// merge writes the union of a and b, which share no fingerprint, as a new
// run.
func (d *runSet) merge(a, b *fpRun) (*fpRun, error) {
	w, err := d.create()
	if err != nil {
		return nil, err
	}
	var cs [2]*runCursor
	for i, r := range []*fpRun{a, b} {
		f, err := os.Open(filepath.Join(d.dir, r.name))
		if err != nil {
			w.abort()
			return nil, err
		}
		defer f.Close()
		cs[i] = d.cursor(f, r)
		cs[i].summing()
	}
	// heads[k] is run k's next fingerprint, at position pos[k], and ids[k]
	// its index.
	var heads [2]uint64
	var ids [2]uint32
	var pos [2]int64
	advance := func(k int) error {
		if pos[k] == cs[k].r.n {
			return nil
		}
		var err error
		heads[k], ids[k], err = cs[k].at(pos[k])
		return err
	}
	err = errors.Join(advance(0), advance(1))
	for err == nil && (pos[0] < a.n || pos[1] < b.n) {
		k := 0
		if pos[0] == a.n || pos[1] < b.n && heads[1] < heads[0] {
			k = 1
		}
		if err = w.add(heads[k], ids[k]); err == nil {
			pos[k]++
			err = advance(k)
		}
	}
	if err == nil {
		err = errors.Join(cs[0].checkSum(), cs[1].checkSum())
	}
	if err != nil {
		w.abort()
		return nil, err
	}
	return w.finish()
}

// retire removes merged runs, or, for a run that checkpoints, keeps them
// until the next checkpoint (forgetRetired).
func (d *runSet) retire(rs ...*fpRun) error {
	if d.keep {
		d.retired = append(d.retired, rs...)
		return nil
	}
	for _, r := range rs {
		if err := os.Remove(filepath.Join(d.dir, r.name)); err != nil {
			return err
		}
	}
	return nil
}

// sync makes the runs durable, before a checkpoint lists them.
func (d *runSet) sync() error {
	for _, r := range d.runs {
		if r.synced {
			continue
		}
		f, err := os.Open(filepath.Join(d.dir, r.name))
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		r.synced = true
	}
	return diskio.SyncDir(d.dir)
}

// forgetRetired deletes the runs merged away before the checkpoint just
// saved, which no longer needs them.
func (d *runSet) forgetRetired() error {
	var err error
	for _, r := range d.retired {
		err = errors.Join(err, os.Remove(filepath.Join(d.dir, r.name)))
	}
	d.retired = d.retired[:0]
	return err
}

// create starts a new run.
func (d *runSet) create() (*runWriter, error) {
	name := fmt.Sprintf("run-%d", d.next)
	d.next++
	path := filepath.Join(d.dir, name)
	f, err := diskio.Create(path)
	if err != nil {
		return nil, err
	}
	return &runWriter{path: path, f: f, r: &fpRun{name: name}, ids: d.ids, buf: make([]byte, 0, runWriteBuffer), sum: xxhash.New()}, nil
}

func (d *runSet) closeCursors() {
	for _, c := range d.cursors {
		c.f.Close()
	}
	d.cursors = d.cursors[:0]
}

func (d *runSet) len() int64 { return d.n }

// fileBytes is the size of the runs' files, those kept for a checkpoint
// included.
func (d *runSet) fileBytes() int64 {
	b := d.n * d.recordBytes()
	for _, r := range d.retired {
		b += r.n * d.recordBytes()
	}
	return b
}

// Bytes is what the store holds in memory: the runs' indices, and during a
// level its cursors' buffers and the new run's.
func (d *runSet) bytes() int64 {
	b := int64(len(d.cursors))*runBlock*2*d.recordBytes() + runWriteBuffer
	for _, r := range d.runs {
		b += int64(cap(r.index)) * 8
	}
	return b
}

func (d *runSet) close() error {
	d.closeCursors()
	if d.out != nil {
		d.out.abort()
		d.out = nil
	}
	return nil
}

// runWriter writes a run, at path, summing its bytes; with ids, each
// fingerprint's index after it.
type runWriter struct {
	path string
	f    *os.File
	r    *fpRun
	ids  bool
	buf  []byte
	last uint64
	sum  *xxhash.Digest
}

func (w *runWriter) add(fp uint64, id uint32) error {
	if w.r.n%runBlock == 0 {
		w.r.index = append(w.r.index, fp)
	} else if fp <= w.last {
		return fmt.Errorf("internal error: run %s written out of order", w.r.name)
	}
	w.last = fp
	w.r.n++
	w.buf = binary.LittleEndian.AppendUint64(w.buf, fp)
	if w.ids {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, id)
	}
	if len(w.buf) > cap(w.buf)-12 {
		return w.flush()
	}
	return nil
}

func (w *runWriter) flush() error {
	w.sum.Write(w.buf)
	_, err := w.f.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}

func (w *runWriter) finish() (*fpRun, error) {
	err := w.flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.path)
		return nil, err
	}
	w.r.sum = w.sum.Sum64()
	return w.r, nil
}

func (w *runWriter) abort() {
	w.f.Close()
	os.Remove(w.path)
}

// runCursor reads a run forward, a block at a time, skipping the blocks
// that the index shows hold nothing sought. A summing cursor reads every
// block, in order, and sums them.
type runCursor struct {
	f *os.File
	r *fpRun
	// buf holds block blk's fingerprints, decoded, and idv their indices
	// if the records have them (ids); pos is the next to compare.
	buf []uint64
	idv []uint32
	ids bool
	raw []byte
	blk int64
	pos int
	sum *xxhash.Digest
}

// summing makes the cursor sum the blocks it reads, which must then be
// every block, in order.
func (c *runCursor) summing() { c.sum = xxhash.New() }

// checkSum checks, once a summing cursor has read the whole run, that its
// bytes are those written.
func (c *runCursor) checkSum() error {
	if blocks := (c.r.n + runBlock - 1) / runBlock; c.blk+1 != blocks {
		return fmt.Errorf("internal error: run %s summed over %d of its %d blocks", c.r.name, c.blk+1, blocks)
	}
	return diskio.CheckSum("run "+filepath.Join(filepath.Base(filepath.Dir(c.f.Name())), c.r.name), c.sum.Sum64(), c.r.sum)
}

// load reads block b.
func (c *runCursor) load(b int64) error {
	if c.sum != nil && b != c.blk+1 {
		return fmt.Errorf("internal error: run %s read out of order by a summing cursor", c.r.name)
	}
	size := int64(8)
	if c.ids {
		size = 12
	}
	if c.raw == nil {
		c.raw = make([]byte, runBlock*size)
		c.buf = make([]uint64, 0, runBlock)
		if c.ids {
			c.idv = make([]uint32, runBlock)
		}
	}
	n := min(c.r.n-b*runBlock, runBlock)
	raw := c.raw[:n*size]
	if _, err := c.f.ReadAt(raw, b*runBlock*size); err != nil && !(errors.Is(err, io.EOF) && len(raw) == 0) {
		return fmt.Errorf("reading run %s: %w", c.r.name, err)
	}
	if c.sum != nil {
		c.sum.Write(raw)
	}
	c.buf = c.buf[:n]
	for i := range c.buf {
		c.buf[i] = binary.LittleEndian.Uint64(raw[int64(i)*size:])
		if c.ids {
			c.idv[i] = binary.LittleEndian.Uint32(raw[int64(i)*size+8:])
		}
	}
	c.blk, c.pos = b, 0
	return nil
}

// seek reports whether the run holds fp, which must not be below any
// fingerprint sought before.
func (c *runCursor) seek(fp uint64) (bool, error) {
	idx := c.r.index
	if len(idx) == 0 || fp < idx[0] {
		return false, nil
	}
	// The block that may hold fp: the last whose first fingerprint is at
	// most fp.
	if c.blk < 0 || c.blk+1 < int64(len(idx)) && idx[c.blk+1] <= fp {
		from := max(c.blk+1, 0)
		b := from + int64(sort.Search(len(idx)-int(from), func(i int) bool { return idx[from+int64(i)] > fp })) - 1
		if err := c.load(b); err != nil {
			return false, err
		}
	}
	for c.pos < len(c.buf) && c.buf[c.pos] < fp {
		c.pos++
	}
	return c.pos < len(c.buf) && c.buf[c.pos] == fp, nil
}

// id is the index beside the fingerprint seek last found, NotStored in
// records without indices.
func (c *runCursor) id() uint32 {
	if !c.ids || c.pos >= len(c.buf) {
		return NotStored
	}
	return c.idv[c.pos]
}

// at is the run's i-th fingerprint and, in records with indices, its
// index; i must not decrease between calls.
func (c *runCursor) at(i int64) (uint64, uint32, error) {
	if b := i / runBlock; b != c.blk {
		if err := c.load(b); err != nil {
			return 0, 0, err
		}
	}
	if c.ids {
		return c.buf[i%runBlock], c.idv[i%runBlock], nil
	}
	return c.buf[i%runBlock], NotStored, nil
}
