package checker

import (
	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/store"
)

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
	// ext is the search extension's part of the chunk's findings (package
	// extension), nil without one.
	ext extension.Chunk
	// seen are the properties whose situation the chunk met (vacuity.go).
	seen propBits
	// fired counts, when coverage is on, the transitions per rule and
	// process (coverage.go); nil otherwise.
	fired []int64
}

// newBatch returns an empty batch, with the extension's part and the
// coverage counts if the run has them.
func (e *bfs[S]) newBatch() *batch {
	b := &batch{}
	if e.ext != nil {
		b.ext = e.ext.NewChunk()
	}
	if e.counts != nil {
		b.fired = make([]int64, len(e.counts.fired))
	}
	return b
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
	if b.ext != nil {
		b.ext.Reset()
	}
	clear(b.fired)
	clear(b.seen)
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
