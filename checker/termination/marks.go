package termination

import (
	"fmt"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/offheap"
	"github.com/ringcheck/mc/checker/store"
)

// markSet holds the marks of the states a run stores (doc.go) and knows
// which of them are still to be expanded. Workers read it while a level is
// expanded; it is written only between rounds and at the level's end.
//
// With the visited set in memory the store keeps the marks in its slots
// (markSlots, slots.go): a successor's marks come with the lookup
// that finds it stored. Otherwise they are an array indexed by state
// (markArray), a byte per 8 properties and state: under partial-order
// reduction the visited set keeps each state's index for the proviso. The
// disk store answers no lookups during a level; it carries the marks of
// the level's candidates through its sorted runs and reports the stored
// states they reach by index (disk.go).
type markSet interface {
	// get returns the marks of the state with fingerprint fp and whether
	// it has been admitted in the level about to be expanded.
	get(fp uint64) (m uint32, pending bool)
	// has returns the marks of the state with index id (store.NotStored
	// if not known) and fingerprint fp, 0 for a state not admitted.
	has(id uint32, fp uint64) uint32
	// ofLevel returns the marks of states lo..hi-1 of the level fr, about
	// to be expanded, in order, using buf's storage: a chunk's at once,
	// so that the lookups it may need overlap their cache misses.
	ofLevel(fr extension.Level, lo, hi int, buf *levelMarks) []uint32
	// raise gives the state with fingerprint fp, pending as get says, the
	// marks m, a superset of those it has. A markArray holds marks only
	// for stored states.
	raise(fp uint64, m uint32, pending bool)
	// admit records the marks m of the new state id, fingerprint fp.
	admit(id uint32, fp uint64, m uint32)
	// startLevel says that the states admitted from now on, from index
	// first, form level, to be expanded after the current one.
	startLevel(level, first uint32)
	bytes() int64
	// free releases the memory; the set must not be used again.
	free()
}

// levelMarks is a worker's storage for ofLevel.
type levelMarks struct {
	fps   []uint64
	found []bool
	marks []uint32
}

// markArray holds the marks by state index, in as many bytes per state as
// the properties need (width); under partial-order reduction the visited
// set in memory, which keeps each state's index, maps a fingerprint to it.
// With the disk store index is
// nil, and only the methods by index are used (disk.go).
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

func (a *markArray) at(id uint32) uint32 { return unpackMarks(a.m, int(id), a.width) }

func (a *markArray) set(id uint32, m uint32) {
	for j := range a.width {
		a.m[int(id)*a.width+j] = byte(m >> (8 * j))
	}
}

// unpackMarks is the marks of entry i of m, width bytes an entry, least
// significant first: how markArray and a level's copy (slots.go)
// hold them.
func unpackMarks(m []byte, i, width int) uint32 {
	var v uint32
	for j, b := range m[i*width : (i+1)*width] {
		v |= uint32(b) << (8 * j)
	}
	return v
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

func (a *markArray) ofLevel(fr extension.Level, lo, hi int, buf *levelMarks) []uint32 {
	buf.marks = buf.marks[:0]
	for j := lo; j < hi; j++ {
		buf.marks = append(buf.marks, a.at(fr.First()+uint32(j)))
	}
	return buf.marks
}

func (a *markArray) has(id uint32, _ uint64) uint32 {
	if id >= a.n {
		return 0
	}
	return a.at(id)
}

func (a *markArray) raise(fp uint64, m uint32, _ bool) {
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

func (a *markArray) bytes() int64 { return int64(len(a.m)) }

func (a *markArray) free() {
	offheap.Free(a.m)
	a.m = nil
}

// Open gives the measure the run's visited set: the deferred checks
// (bounds.go) with the visited set in memory and every successor
// expanded, and, in the marks phase, its marks: in the visited set's
// slots if it keeps them (slots.go); else by state index: under
// partial-order reduction the visited set keeps the indices, and the disk
// store finds them itself (disk.go).
func (a *Measure[S]) Open(st store.Store, l store.PayloadLayout, deferred bool) {
	a.st, a.layout = st, l
	indexed, _ := st.(store.Indexed)
	switch {
	case deferred:
		if len(a.sys.Init) > 0 {
			a.bounds = &bounds{width: len(a.term.Value(nil, &a.sys.Init[0]))}
		}
		if a.withMarks {
			a.payloads = st.(store.WithPayload)
			a.marks = newMarkSlots(a.payloads, len(a.props))
		}
	case indexed != nil: // reduced
		a.stored = func(fp uint64) bool { return indexed.IndexOf(fp, nil) != store.NotStored }
		if a.withMarks {
			a.marks = newMarkArray(indexed, len(a.props))
		}
	case a.withMarks: // the disk store
		a.onDisk = st.(store.Locator)
		a.marks = newMarkArray(nil, len(a.props))
	}
}
