package termination

import (
	"fmt"
	"math"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/offheap"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/model"
)

// Deferred checks of the termination measure (doc.go). Evaluating the
// measure on both ends of every transition would evaluate it once per
// transition on top of once per state (docs/liveness.md, "Cost with
// deferred checks", has what that cost), so with the visited set in memory
// a transition s → t is checked where the measure of t is at hand anyway:
//
//   - t already stored when s is expanded (it can be anywhere, expanded or
//     not): its measure, read off t as the expansion built it (the
//     successors are kept as states until the lookup has said which are
//     stored: worker.Edges), is compared with s's at once;
//   - t not stored yet: t is admitted in this level's round and expanded in
//     the next level, where its measure is evaluated once, as the start of
//     its own transitions. The edge leaves the bound measure(s) with t's
//     candidate; the bounds of all the edges to t are merged into their
//     lexicographic minimum, with the edge that gave it, and kept beside t
//     until it is expanded, when measure(t) < bound is checked. That covers
//     every edge to t: the minimum is below every other bound.
//
// Every transition is still checked, the second kind, most of them, at the
// cost of one comparison. A transition that breaks the measure is reported
// as before, with the edge that gave the bound. A level's bounds live in
// memory only until its states are expanded; a checkpoint is taken between
// levels, so the bounds of the frontier are checked before one is written
// (BeforeCheckpoint) and a resumed run starts with none. With the disk store,
// which answers no lookups during a level, every transition is checked at
// once; so it is under partial-order reduction, where a successor computed
// but left out of the ample set is never stored, so never expanded, and a
// bound left with it would never be checked (package checker's
// expandReduced).
type bounds struct {
	// width is the number of the measure's components; a bound is a row
	// of width components, then the parent and the packed action of the
	// edge that gave it, parent noParent for none. A measure with a
	// component past math.MaxUint32 is checked at once on the edges from
	// that state instead.
	width int
	// cur holds the rows of the level being expanded, from state curFirst
	// on, curLen of them; next those of the states admitted for the next
	// level, from nextFirst on. They are mapped outside the Go heap, as
	// the marks are.
	cur, next           []uint32
	curLen, nextLen     int
	curFirst, nextFirst uint32
}

func (bd *bounds) row() int { return bd.width + 2 }

// startLevel says that the states admitted from now on, from index first,
// form the next level; the states admitted so far are expanded now.
func (bd *bounds) startLevel(first uint32) {
	bd.cur, bd.next = bd.next, bd.cur
	bd.curLen, bd.nextLen = bd.nextLen, 0
	bd.curFirst, bd.nextFirst = bd.nextFirst, first
}

// of is the bound of state id of the level being expanded, nil if it has
// none.
func (bd *bounds) of(id uint32) []uint32 {
	r := bd.row()
	if id < bd.curFirst || int(id-bd.curFirst) >= bd.curLen {
		return nil
	}
	j := int(id-bd.curFirst) * r
	if bd.cur[j+bd.width] == noParent {
		return nil
	}
	return bd.cur[j : j+r]
}

// admit records the bound row of state id, just admitted.
func (bd *bounds) admit(id uint32, row []uint32) {
	if want := bd.nextFirst + uint32(bd.nextLen); id != want {
		panic(fmt.Sprintf("internal error: state %d admitted with a bound after state %d", id, want-1))
	}
	r := bd.row()
	if need := (bd.nextLen + 1) * r; need > len(bd.next) {
		grown := offheap.Slice[uint32](max(len(bd.next)+len(bd.next)/2, need, 1<<12))
		copy(grown, bd.next)
		offheap.Free(bd.next)
		bd.next = grown
	}
	copy(bd.next[bd.nextLen*r:], row)
	bd.nextLen++
}

// merge lowers the bound of state id, admitted for the next level, to row
// if row is below it.
func (bd *bounds) merge(id uint32, row []uint32) {
	if id < bd.nextFirst || int(id-bd.nextFirst) >= bd.nextLen {
		panic(fmt.Sprintf("internal error: a bound merged into state %d, not of the next level", id))
	}
	j := int(id-bd.nextFirst) * bd.row()
	mergeBound(bd.next[j:j+bd.row()], row, bd.width)
}

// free unmaps the rows.
func (bd *bounds) free() {
	offheap.Free(bd.cur)
	offheap.Free(bd.next)
	bd.cur, bd.next = nil, nil
}

// mergeBound lowers the bound dst to src if src is below it (or dst has
// none); on a tie the earlier edge, dst's, stays.
func mergeBound(dst, src []uint32, width int) {
	if src[width] == noParent {
		return
	}
	if dst[width] == noParent || below(src[:width], dst[:width]) {
		copy(dst, src)
	}
}

// lowerBound lowers the bound row dst to the bound that an edge from the
// state with measure before, state parent, by action, leaves, if that is
// below it (or dst has none): mergeBound of appendBound's row, built in
// place.
func lowerBound(dst []uint32, before []int, parent, action uint32) {
	width := len(before)
	if dst[width] != noParent && !decreasesFrom(dst[:width], before) {
		return
	}
	for i, v := range before {
		dst[i] = uint32(v)
	}
	dst[width], dst[width+1] = parent, action
}

// below reports whether a is lexicographically smaller than b.
func below(a, b []uint32) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// fitsBound reports whether the measure value before fits a bound row:
// every component in 0..math.MaxUint32.
func fitsBound(before []int) bool {
	for _, v := range before {
		if v < 0 || v > math.MaxUint32 {
			return false
		}
	}
	return true
}

// appendBound appends to rows the bound that an edge from the state with
// measure before, state parent, by action, leaves; before must fit a row
// (fitsBound).
func appendBound(rows []uint32, before []int, parent, action uint32) []uint32 {
	for _, v := range before {
		rows = append(rows, uint32(v))
	}
	return append(rows, parent, action)
}

// appendNoBound appends a row with no bound, that of an initial state.
func (bd *bounds) appendNoBound(rows []uint32) []uint32 {
	for range bd.width {
		rows = append(rows, 0)
	}
	return append(rows, noParent, 0)
}

// decreasesFrom reports whether the measure value is below the bound row.
func decreasesFrom(row []uint32, value []int) bool {
	for i, b := range row {
		if v := int64(value[i]); v != int64(b) {
			return v < int64(b)
		}
	}
	return false
}

// boundValues are the components of a bound row, for a report.
func boundValues(row []uint32) []int {
	out := make([]int, len(row))
	for i, v := range row {
		out[i] = int(v)
	}
	return out
}

// BeforeCheckpoint checks the bounds of the frontier fr, the level about
// to be expanded, before a checkpoint is written, and drops them: a
// resumed run has none.
func (a *Measure[S]) BeforeCheckpoint(fr extension.Level) error {
	if !a.Active() || a.bounds == nil {
		return nil
	}
	bd := a.bounds
	var s S
	var value []int
	// A resumed run's first frontier has no rows.
	for j := 0; j < fr.Len() && j < bd.nextLen; j++ {
		row := bd.next[j*bd.row() : (j+1)*bd.row()]
		if row[bd.width] == noParent {
			continue
		}
		enc := fr.State(j)
		if err := a.sys.Decode(enc, &s); err != nil {
			return fmt.Errorf("internal error: state %d does not decode: %v", fr.First()+uint32(j), err)
		}
		value = a.term.Value(value[:0], &s)
		if !decreasesFrom(row[:bd.width], value) {
			a.wrong = &Wrong{Parent: row[bd.width], Action: packed.Unpack(row[bd.width+1]), FP: model.Fingerprint(enc),
				Before: boundValues(row[:bd.width]), After: value}
			return nil
		}
		row[bd.width] = noParent
	}
	return nil
}

// noParent is the parent of a row that holds no bound (an initial state's,
// or one checked).
const noParent = ^uint32(0)
