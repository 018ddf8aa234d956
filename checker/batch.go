package checker

import "github.com/ringcheck/mc/checker/store"

// batch holds what one worker found expanding one chunk of a level: the
// candidate successors not already in the store (store.Candidates), and
// the chunk's counts and first step and end property hits. Chunks are
// merged in order, so the outcome is the same whatever the number of
// workers.
type batch struct {
	store.Candidates
	// hits are the step and end properties this chunk decided, first hit
	// per property, in the chunk's order.
	hits        []propHit
	transitions int64
	terminal    int64
	// With a termination measure (acyclic.go): the chunk's raises, the
	// marks of its terminal states (the goals they leave unmet, before the
	// marks phase), and the first transition that does not decrease the
	// measure.
	raises  []raise
	pending uint32
	wrong   *wrongTransition
	// bounds are the candidates' bounds when the measure's checks are
	// deferred (acyclic_bounds.go), a row per candidate; ids the index
	// each was admitted as, store.NotStored for none (admittedBy).
	bounds []uint32
	ids    []uint32
	// seen are the properties whose situation the chunk met (vacuity.go).
	seen propBits
	// fired counts, when coverage is on, the transitions per rule and
	// process (coverage.go); nil otherwise.
	fired []int64
}

// propHit is a hit on property prop.
type propHit struct {
	prop int
	hit  hit
}

func (b *batch) reset() {
	b.Candidates.Reset()
	b.hits = b.hits[:0]
	b.transitions, b.terminal = 0, 0
	b.raises, b.pending, b.wrong, b.bounds = b.raises[:0], 0, nil, b.bounds[:0]
	clear(b.fired)
	clear(b.seen)
}

// wrongAt records a transition that does not decrease the measure, unless
// the chunk has one already.
func (b *batch) wrongAt(at hit, before, after []int) {
	if b.wrong == nil {
		b.wrong = &wrongTransition{at: at, before: append([]int(nil), before...), after: append([]int(nil), after...)}
	}
}

// hitFirst records h for prop unless the chunk already has one.
func (b *batch) hitFirst(prop int, h hit) {
	for _, x := range b.hits {
		if x.prop == prop {
			return
		}
	}
	b.hits = append(b.hits, propHit{prop: prop, hit: h})
}
