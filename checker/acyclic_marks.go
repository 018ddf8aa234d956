package checker

import (
	"fmt"

	"mc/checker/internal/diskio"
	"mc/checker/internal/offheap"
	"mc/checker/store"
	"mc/model"
)

// markSet holds the marks of the states a run stores (acyclic.go) and knows
// which of them are still to be expanded. Workers read it while a level is
// expanded; it is written only between rounds and at the level's end.
//
// With the visited set in memory, the store keeps each state's index and
// the marks are an array indexed by it (markArray): a successor's marks
// then cost the visited set's lookup and one array read, and a state a byte
// per 8 properties. The disk store answers no lookups during a level, so there the
// marks are a table keyed by fingerprint (markTable).
type markSet interface {
	// get returns the marks of the state with fingerprint fp and whether
	// it has been admitted in the level about to be expanded.
	get(fp uint64) (m uint32, pending bool)
	// has returns the marks of the state with index id (store.NotStored
	// if not known) and fingerprint fp, 0 for a state not admitted.
	has(id uint32, fp uint64) uint32
	// of returns the marks of the stored state id, encoded as enc.
	of(id uint32, enc []byte) uint32
	// raise gives the state with fingerprint fp the marks m, a superset
	// of those it has. A markArray holds marks only for stored states.
	raise(fp uint64, m uint32)
	// admit records the marks m of the new state id, fingerprint fp.
	admit(id uint32, fp uint64, m uint32)
	// startLevel says that the states admitted from now on, from index
	// first, form level, to be expanded after the current one.
	startLevel(level, first uint32)
	// write and read are the marks' part of a checkpoint; read fills an
	// empty set for a run of states states.
	write(w *diskio.SectionWriter)
	read(r *diskio.Section, states uint32) error
	bytes() int64
	// free releases the memory; the set must not be used again.
	free()
}

// markArray holds the marks by state index, in as many bytes per state as
// the properties need (width); the visited set, which keeps each state's
// index, maps a fingerprint to it.
type markArray struct {
	index store.Indexed
	width int
	m     []byte
	// n is the number of states admitted.
	n uint32
	// first is the index of the first state of the level to be expanded
	// next: the states from it on are pending.
	first uint32
}

func newMarkArray(index store.Indexed, props int) *markArray {
	return &markArray{index: index, width: (props + 7) / 8}
}

func (a *markArray) at(id uint32) uint32 {
	var m uint32
	for j, b := range a.m[int(id)*a.width : int(id+1)*a.width] {
		m |= uint32(b) << (8 * j)
	}
	return m
}

func (a *markArray) set(id uint32, m uint32) {
	for j := range a.width {
		a.m[int(id)*a.width+j] = byte(m >> (8 * j))
	}
}

// get finds a state not admitted, even if the store holds it (a run stopped
// by its state limit in the middle of a commit), without marks and pending.
func (a *markArray) get(fp uint64) (uint32, bool) {
	id := a.index.IndexOf(fp, nil)
	if id >= a.n {
		return 0, true
	}
	return a.at(id), id >= a.first
}

func (a *markArray) of(id uint32, _ []byte) uint32 { return a.at(id) }

func (a *markArray) has(id uint32, _ uint64) uint32 {
	if id >= a.n {
		return 0
	}
	return a.at(id)
}

func (a *markArray) raise(fp uint64, m uint32) {
	id := a.index.IndexOf(fp, nil)
	if id >= a.n {
		panic(fmt.Sprintf("internal error: marks raised on state %#x, which is not stored", fp))
	}
	a.set(id, m)
}

func (a *markArray) admit(id uint32, _ uint64, m uint32) {
	if id != a.n {
		panic(fmt.Sprintf("internal error: state %d admitted after %d marks", id, a.n))
	}
	if need := int(a.n+1) * a.width; need > len(a.m) {
		grown := offheap.Slice[byte](max(len(a.m)+len(a.m)/2, need, 1<<12))
		copy(grown, a.m)
		offheap.Free(a.m)
		a.m = grown
	}
	a.set(id, m)
	a.n++
}

func (a *markArray) startLevel(_, first uint32) { a.first = first }

// write gives the number of states, then each one's marks.
func (a *markArray) write(w *diskio.SectionWriter) {
	w.Uint(uint64(a.n))
	for id := range a.n {
		w.Uint(uint64(a.at(id)))
	}
}

func (a *markArray) read(r *diskio.Section, states uint32) error {
	n := r.Uint()
	if r.Err() == nil && n != uint64(states) {
		return &diskio.BadSection{Why: "marks and trace log disagree"}
	}
	for id := uint32(0); uint64(id) < n && r.Err() == nil; id++ {
		a.admit(id, 0, uint32(r.Uint()))
	}
	return r.Err()
}

func (a *markArray) bytes() int64 { return int64(len(a.m)) }

func (a *markArray) free() {
	offheap.Free(a.m)
	a.m = nil
}

// markTable maps the fingerprints of marked states to their marks and to one
// more than the level at which they were admitted (0: not known, for a
// state marked only after its admission, which is then taken as expanded:
// re-expanding it again passes on nothing it would not pass on anyway). It
// is an open-addressing table with linear probing that grows at 3/4 load;
// fingerprint 0 is stored as 1, as in the visited set. Its arrays are
// mapped outside the Go heap, as the visited set's are (package offheap),
// so that a table it outgrows costs nothing once freed.
type markTable struct {
	keys []uint64
	vals []uint64
	n    int
	// level is one more than the level whose states are being admitted.
	level uint32
}

func newMarkTable() *markTable {
	return &markTable{keys: offheap.Slice[uint64](1 << 10), vals: offheap.Slice[uint64](1 << 10), level: 1}
}

func (t *markTable) get(fp uint64) (uint32, bool) {
	m, lvl := t.lookup(fp)
	return m, lvl == t.level
}

func (t *markTable) of(_ uint32, enc []byte) uint32 {
	m, _ := t.lookup(model.Fingerprint(enc))
	return m
}

func (t *markTable) has(_ uint32, fp uint64) uint32 {
	m, _ := t.lookup(fp)
	return m
}

func (t *markTable) raise(fp uint64, m uint32) {
	_, lvl := t.lookup(fp)
	t.put(fp, m, lvl)
}

func (t *markTable) admit(_ uint32, fp uint64, m uint32) {
	if m != 0 {
		t.put(fp, m, t.level)
	}
}

func (t *markTable) startLevel(level, _ uint32) { t.level = level }

// write gives the number of marked states, then each one's fingerprint,
// marks and level.
func (t *markTable) write(w *diskio.SectionWriter) {
	w.Uint(uint64(t.n))
	t.each(func(fp, val uint64) {
		w.Uint(fp)
		w.Uint(val)
	})
}

func (t *markTable) read(r *diskio.Section, _ uint32) error {
	for n := r.Uint(); n > 0 && r.Err() == nil; n-- {
		fp, val := r.Uint(), r.Uint()
		t.put(fp, uint32(val), uint32(val>>32))
	}
	return r.Err()
}

// free unmaps the table's arrays; it must not be used again.
func (t *markTable) free() {
	offheap.Free(t.keys)
	offheap.Free(t.vals)
	t.keys, t.vals = nil, nil
}

func (t *markTable) slot(fp uint64) (int, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := (fp * 0x9E3779B97F4A7C15) >> 20 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case fp:
			return int(i), true
		case 0:
			return int(i), false
		}
	}
}

// lookup returns the marks of the state with fingerprint fp and its level
// (both 0 if it has none).
func (t *markTable) lookup(fp uint64) (marks, level uint32) {
	i, ok := t.slot(max(fp, 1))
	if !ok {
		return 0, 0
	}
	return uint32(t.vals[i]), uint32(t.vals[i] >> 32)
}

// put sets the marks and level of the state with fingerprint fp.
func (t *markTable) put(fp uint64, marks, level uint32) {
	fp = max(fp, 1)
	i, ok := t.slot(fp)
	if !ok {
		if 4*(t.n+1) > 3*len(t.keys) {
			t.grow()
			i, _ = t.slot(fp)
		}
		t.n++
	}
	t.keys[i], t.vals[i] = fp, uint64(level)<<32|uint64(marks)
}

func (t *markTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys, t.vals = offheap.Slice[uint64](2*len(keys)), offheap.Slice[uint64](2*len(keys))
	for j, k := range keys {
		if k != 0 {
			i, _ := t.slot(k)
			t.keys[i], t.vals[i] = k, vals[j]
		}
	}
	offheap.Free(keys)
	offheap.Free(vals)
}

// each calls f on every entry.
func (t *markTable) each(f func(fp, val uint64)) {
	for i, k := range t.keys {
		if k != 0 {
			f(k, t.vals[i])
		}
	}
}

func (t *markTable) bytes() int64 { return int64(len(t.keys)) * 16 }

// openMarks gives the measure's bookkeeping, if any, its marks: by state
// index if the visited set keeps the indices, else by fingerprint; and, by
// index but for a reduced run, the deferred checks (acyclic_bounds.go).
func (e *bfs[S]) openMarks() {
	switch {
	case e.acyc == nil:
	case e.indexed != nil:
		e.acyc.marks = newMarkArray(e.indexed, len(e.acyc.props))
		if len(e.sys.Init) > 0 && e.reducer == nil {
			e.acyc.bounds = &bounds{width: len(e.acyc.term.Value(nil, &e.sys.Init[0]))}
		}
	default:
		e.acyc.marks = newMarkTable()
	}
}
