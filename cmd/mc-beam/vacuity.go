package main

import "github.com/ringcheck/mc/checker"

// Vacuity (docs/vacuity.md) in a search split over shards: one bit per
// property records whether its situation arose, where mc check looks for
// it: an invariant's subject or a leads-to's premise in a state when it
// is judged (checker.Judgement.Met), a step property's on a transition
// and an end property's on a terminal state when the state is expanded
// (checker.Expansion.Met). Each shard's summary carries its bits and the
// driver ORs them, level after level. A verdict that can be vacuous, a
// pass, comes only from a search that judged and expanded every state
// it found, whatever the shards, so the bits are mc check's.

// situations is a set of properties, by index in the target's Props: a
// bitmask of 64 properties a word.
type situations []uint64

func (b situations) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b *situations) set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

// from sets the properties met marks (checker.Expand's and Judge's
// record, by property index).
func (b *situations) from(met []bool) {
	for i, m := range met {
		if m {
			b.set(i)
		}
	}
}

func (b *situations) or(c situations) {
	for len(*b) < len(c) {
		*b = append(*b, 0)
	}
	for i, w := range c {
		(*b)[i] |= w
	}
}

// vacuous reports whether property i passed vacuously: it passed (before
// --fail-vacuous) and its situation, one that a run may not meet, never
// arose.
func (r *result) vacuous(i int) bool {
	p := r.props[i]
	return p.Unmet != "" && r.decided(p) == checker.Pass && !r.met.has(i)
}
