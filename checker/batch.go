package checker

// batch holds what one worker found expanding one chunk of a level: the
// candidate successors not already in the store (with their fingerprint,
// parent, action, encoding and the properties they decide), and the first
// step and end property hits of the chunk. Chunks are merged in order, so
// the outcome is the same whatever the number of workers.
type batch struct {
	fps     []uint64
	parents []uint32
	actions []uint32
	// masks has bit i set when state property i (an invariant that fails
	// or a witness that holds) is decided by the candidate.
	masks []uint64
	// vals holds the measures' values, len(Measures) per candidate.
	vals  []int
	data  []byte
	ends  []uint32
	fresh []bool

	// hits are the step and end properties this chunk decided, first hit
	// per property, in the chunk's order.
	hits        []propHit
	transitions int64
	terminal    int64

	// local holds the fingerprints of the chunk's candidates, so that a
	// state reached twice within a chunk, the common diamond of
	// interleavings, is kept once.
	local shard
	// owned[w] lists, in order, the candidates whose shard of the memory
	// store worker w writes (sortByOwner).
	owned [][]int32
}

// sortByOwner fills owned for a commit by workers goroutines.
func (b *batch) sortByOwner(workers int) {
	for len(b.owned) < workers {
		b.owned = append(b.owned, nil)
	}
	for w := range b.owned {
		b.owned[w] = b.owned[w][:0]
	}
	for i, fp := range b.fps {
		w := owner(shardOf(tableKey(fp)), workers)
		b.owned[w] = append(b.owned[w], int32(i))
	}
}

// propHit is a hit on property prop.
type propHit struct {
	prop int
	hit  hit
}

func (b *batch) reset() {
	b.fps, b.parents, b.actions, b.masks, b.vals = b.fps[:0], b.parents[:0], b.actions[:0], b.masks[:0], b.vals[:0]
	b.data, b.ends, b.fresh, b.hits = b.data[:0], b.ends[:0], b.fresh[:0], b.hits[:0]
	b.transitions, b.terminal = 0, 0
	clear(b.local.keys)
	b.local.n = 0
}

// firstInChunk reports whether fp is new to this chunk, recording it.
func (b *batch) firstInChunk(fp uint64) bool {
	if b.local.keys == nil {
		b.local.keys = make([]uint64, 1024)
	}
	return b.local.insert(tableKey(fp))
}

func (b *batch) add(fp uint64, parent, action uint32, mask uint64, enc []byte) {
	b.fps = append(b.fps, fp)
	b.parents = append(b.parents, parent)
	b.actions = append(b.actions, action)
	b.masks = append(b.masks, mask)
	b.data = append(b.data, enc...) // enc nil: already appended to b.data
	b.ends = append(b.ends, uint32(len(b.data)))
}

// enc is candidate i's encoding.
func (b *batch) enc(i int) []byte {
	from := uint32(0)
	if i > 0 {
		from = b.ends[i-1]
	}
	return b.data[from:b.ends[i]]
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
