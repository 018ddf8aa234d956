package main

import "github.com/ringcheck/mc/checker"

// Vacuity (docs/vacuity.md) in a search split over shards: each shard's
// expansion records, one bit per property, the situations its states and
// their transitions are (checker.Expansion.Met), and the driver ORs the
// shards' bits, level after level. Every state a level holds is expanded
// whatever the shards, so the bits are mc check's.

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
