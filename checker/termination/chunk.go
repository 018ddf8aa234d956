package termination

import (
	"slices"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/store"
)

// chunk is the measure's part of what one worker found expanding one
// chunk of a level: its raises, the marks of its terminal states (the
// goals they leave unmet, before the marks phase), the first transition
// that does not decrease the measure, and, with deferred checks
// (bounds.go), a bound row per candidate and the index each was admitted
// as, store.NotStored for none (admittedBy).
type chunk struct {
	raises  []raise
	pending uint32
	wrong   *Wrong
	bounds  []uint32
	ids     []uint32
}

// NewChunk returns an empty chunk.
func (a *Measure[S]) NewChunk() extension.Chunk { return &chunk{} }

// Reset empties the chunk for the next.
func (k *chunk) Reset() {
	k.raises, k.pending, k.wrong = k.raises[:0], 0, nil
	k.bounds, k.ids = k.bounds[:0], k.ids[:0]
}

// wrongAt records a transition that does not decrease the measure, unless
// the chunk has one already.
func (k *chunk) wrongAt(w Wrong) {
	if k.wrong == nil {
		w.Before, w.After = slices.Clone(w.Before), slices.Clone(w.After)
		k.wrong = &w
	}
}

// Committed takes in the round's chunks, in order: their terminal states'
// marks and the first wrong transition, and, once the store has admitted
// the round's new states (complete), their raises and the candidates'
// marks and bounds that the commit did not admit (keepCandidates). The
// disk store, which defers its commits, merges the marks itself (disk.go).
func (a *Measure[S]) Committed(round []extension.Committed, complete bool) {
	for _, c := range round {
		k := c.Chunk.(*chunk)
		if a.Active() {
			a.pending |= k.pending
			if k.wrong != nil {
				a.wrong, a.raises = k.wrong, nil
			}
		}
	}
	if !complete || !a.Active() || a.onDisk != nil || (!a.withMarks && a.bounds == nil) {
		return
	}
	for k, c := range round {
		for _, r := range c.Chunk.(*chunk).raises {
			a.keep(r)
		}
		a.keepCandidates(round, k)
	}
}

// keepCandidates keeps, as raises, the marks of the candidates of chunk k
// of a round that its commit did not admit: states admitted by an earlier
// chunk of the round (the edges to a state stored before the round are
// the worker's Stored's), and merges their bounds (bounds.go). A candidate
// whose marks are all among those of the candidate the state was admitted
// from gives it nothing (marks only grow), and needs no lookup in the
// store.
func (a *Measure[S]) keepCandidates(round []extension.Committed, k int) {
	vals, at, b := a.layout.Vals, a.layout.At, round[k].Cands
	bk := round[k].Chunk.(*chunk)
	for i, fp := range b.FPs {
		if b.Fresh(i) {
			continue
		}
		from, j := admittedBy(round[:k], fp)
		if a.withMarks {
			m := uint32(b.Vals[i*vals+at])
			if m != 0 && (from == nil || m&^uint32(from.Cands.Vals[j*vals+at]) != 0) {
				a.keep(raise{fp: fp, parent: b.Parents[i], action: b.Actions[i], mask: m})
			}
		}
		if bd := a.bounds; bd != nil && from != nil {
			if id := from.Chunk.(*chunk).ids[j]; id != store.NotStored {
				bd.merge(id, bk.bounds[i*bd.row():(i+1)*bd.row()])
			}
		}
	}
}

// admittedBy is the chunk, and the candidate in it, that admitted the
// state with fingerprint fp, nil if none of the chunks did. With the store
// in memory, a candidate that a round's commit finds stored leads to a
// state admitted from an earlier chunk of the round (the lookup before the
// round did not find it, and a chunk holds each state once): the one whose
// candidate is fresh. The chunks are searched from the latest, where the
// candidates of neighbouring chunks, which share successors the most, are.
func admittedBy(earlier []extension.Committed, fp uint64) (*extension.Committed, int) {
	for k := len(earlier) - 1; k >= 0; k-- {
		if j, ok := earlier[k].Cands.At(fp); ok && earlier[k].Cands.Fresh(j) {
			return &earlier[k], j
		}
	}
	return nil, 0
}
