package termination

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// Marks with the disk store (doc.go). The disk store answers no lookups
// while a level is expanded, so none of the level's edges can be told to
// lead to a new state or to a stored one, and keeping one raise per edge
// with marks (24 bytes in memory until the level's end) costs as much as
// the level's transitions. Instead the marks travel with the candidates:
// each candidate carries the marks its edge gives, in the level's file and
// in the keys the store sorts (store.DiskPayload); the sort brings a
// fingerprint's candidates together, and their marks are merged there.
// When the level is resolved,
//
//   - a new state is admitted with the union of the marks of all the
//     level's edges to it: the marks it would have after every raise of
//     the level was applied, so none is needed;
//   - a state stored before the level (all of them are expanded by then)
//     is reported once, with its index, which the store's runs keep beside
//     each fingerprint, and the union of the marks of the level's edges to
//     it (Reached). Only the bits it lacks matter: they are set at once and
//     kept as a gain, 8 bytes, to pass on.
//
// The marks are the array by state index that the visited set in memory
// uses, a byte per state and 8 properties.
//
// settleOnDisk then passes the gains on as EndLevel does in memory,
// but breadth-first in rounds instead of depth-first, since a successor's
// index is found only by reading the runs: each gaining state is rebuilt
// from its path in the trace log and expanded; the marks its successors
// inherit are merged by fingerprint, sorted, and located in the runs in
// one pass (store.Locator); each successor that gains bits gets them, and,
// unless it is of the next level, still to be expanded, is the next
// round's. A state gains each bit at most once, so the rounds end, and the
// marks are the same closed set as with the memory store: the reachable
// pending states. As there, a successor without successors that gains bits
// is a violation.

// gain is a stored, expanded state id that just gained the marks bits.
type gain struct{ id, bits uint32 }

// Reached is the disk store's report (store.DiskPayload.Reached) that the
// level's candidates reach id, a state stored before the level, with the
// marks m: it sets the bits id lacks and keeps them to pass on
// (settleOnDisk).
func (a *Measure[S]) Reached(id, m uint32) {
	if !a.Active() {
		return
	}
	arr := a.marks.(*markArray)
	have := arr.at(id)
	if g := m &^ have; g != 0 {
		arr.set(id, have|g)
		a.gains = append(a.gains, gain{id: id, bits: g})
	}
}

// markedEdge is an edge to the state with fingerprint fp that gives it the
// marks m.
type markedEdge struct {
	fp uint64
	m  uint32
}

// settleOnDisk passes on, through the successors, the marks gained by the
// stored states the level just committed reached (see above), depth being
// the level's.
func (a *Measure[S]) settleOnDisk(depth int) error {
	arr := a.marks.(*markArray)
	work := a.gains
	a.gains = nil
	var edges []markedEdge
	var fps []uint64
	var ids []uint32
	var next S
	for len(work) > 0 {
		edges = edges[:0]
		for _, g := range work {
			s, err := a.rebuild(g.id, depth, nil)
			if err != nil {
				return err
			}
			enabled := a.passOn(&s, g.bits, &next, func(enc []byte, m uint32) {
				edges = append(edges, markedEdge{fp: model.Fingerprint(enc), m: m})
			})
			if !enabled {
				a.pending |= g.bits
			}
		}
		slices.SortFunc(edges, func(x, y markedEdge) int { return cmp.Compare(x.fp, y.fp) })
		fps = fps[:0]
		merged := edges[:0]
		for _, ed := range edges {
			if n := len(merged); n > 0 && merged[n-1].fp == ed.fp {
				merged[n-1].m |= ed.m
				continue
			}
			merged = append(merged, ed)
			fps = append(fps, ed.fp)
		}
		ids = slices.Grow(ids[:0], len(fps))[:len(fps)]
		if err := a.onDisk.Locate(fps, ids); err != nil {
			return err
		}
		work = work[:0]
		for i, ed := range merged {
			id := ids[i]
			if id == store.NotStored || id >= arr.n {
				return fmt.Errorf("internal error: a successor of an expanded state, %#x, is not stored", ed.fp)
			}
			have := arr.at(id)
			g := ed.m &^ have
			if g == 0 {
				continue
			}
			arr.set(id, have|g)
			if id < arr.first { // expanded: pass the bits on
				work = append(work, gain{id: id, bits: g})
			}
		}
	}
	return nil
}
