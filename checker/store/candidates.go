package store

// Candidates are the states one worker found expanding one chunk of a level,
// in the order it found them, or the successors of one state: each with its
// fingerprint and encoding, by which a store looks it up, and with what the
// search needs to admit it as a new state (its parent's index, its packed
// action, the bits of the state properties it decides and its measures'
// values), which a store that defers its commits (disk) carries for it.
type Candidates struct {
	FPs     []uint64
	Parents []uint32
	Actions []uint32
	Masks   []uint64
	// Vals holds the measures' values, the same number per candidate.
	Vals []int
	// Data holds the encodings back to back; ends[i] is where candidate
	// i's ends.
	Data []byte
	ends []uint32
	// fresh[i] is set by a commit when candidate i is new (memory.go,
	// exact.go).
	fresh []bool
	// local holds the fingerprints added through FirstOf, so that a state
	// reached twice within a chunk, the common diamond of interleavings,
	// is kept once; localAt, if FirstAt is used, the position of each
	// one's candidate, slot by slot.
	local   table
	localAt []int32
	// inChunk[i], set by NoteInChunk, is -1 unless candidate i is already a
	// candidate of the chunk being expanded, so not stored; then it is that
	// candidate's position in the chunk if the chunk uses FirstAt, else 0.
	inChunk []int32
}

// Reset empties c, keeping its storage.
func (c *Candidates) Reset() {
	c.FPs, c.Parents, c.Actions, c.Masks, c.Vals = c.FPs[:0], c.Parents[:0], c.Actions[:0], c.Masks[:0], c.Vals[:0]
	c.Data, c.ends, c.fresh, c.inChunk = c.Data[:0], c.ends[:0], c.fresh[:0], c.inChunk[:0]
	clear(c.local.keys)
	c.local.n = 0
}

// Len is the number of candidates.
func (c *Candidates) Len() int { return len(c.FPs) }

// FirstOf reports whether fp is new to the candidates added through
// FirstOf since the last Reset, recording it.
func (c *Candidates) FirstOf(fp uint64) bool {
	if c.local.keys == nil {
		c.local.keys = make([]uint64, 1024)
	}
	return c.local.insert(tableKey(fp))
}

// FirstAt is FirstOf that also says where the state is: if fp is new, it
// records that fp's candidate is the next one added (position c.Len()),
// which the caller must then add; if not, it returns the position of the
// candidate added for fp. A search extension (package checker/extension)
// merges what every edge of a chunk carries into its state this way.
// A chunk's candidates use FirstOf or FirstAt, not both.
func (c *Candidates) FirstAt(fp uint64) (at int, first bool) {
	fp = tableKey(fp)
	t := &c.local
	if t.keys == nil || 4*(t.n+1) > 3*len(t.keys) {
		c.growLocal()
	}
	for i := home(fp, len(t.keys)); ; i++ {
		if i == len(t.keys) {
			i = 0
		}
		switch t.keys[i] {
		case fp:
			return int(c.localAt[i]), false
		case 0:
			t.keys[i], c.localAt[i] = fp, int32(len(c.FPs))
			t.n++
			return len(c.FPs), true
		}
	}
}

// NoteInChunk notes whether chunk already holds the last candidate added
// to c (a successor of the state being expanded) through FirstOf or
// FirstAt, and reports it. Such a state is not stored: it was not when the
// chunk took it, and a store does not change while a round is expanded.
// So a store of fingerprints answers SeenAll for it without a lookup in
// the visited set, where it would miss the cache; in a breadth-first
// search many edges lead to a state an earlier state of the same chunk
// reached already (the diamonds of interleaving).
func (c *Candidates) NoteInChunk(chunk *Candidates) bool {
	i := len(c.FPs) - 1
	for len(c.inChunk) < i {
		c.inChunk = append(c.inChunk, -1)
	}
	at := int32(-1)
	if slot := chunk.find(c.FPs[i]); slot >= 0 {
		at = 0
		if chunk.localAt != nil {
			at = chunk.localAt[slot]
		}
	}
	c.inChunk = append(c.inChunk[:i], at)
	return at >= 0
}

// InChunk reports whether NoteInChunk found candidate i in its chunk.
func (c *Candidates) InChunk(i int) bool { return i < len(c.inChunk) && c.inChunk[i] >= 0 }

// ChunkAt is, if NoteInChunk found candidate i in its chunk, which uses
// FirstAt, the position of the chunk's candidate: what FirstAt would
// return, without a second lookup.
func (c *Candidates) ChunkAt(i int) (int, bool) {
	if !c.InChunk(i) {
		return 0, false
	}
	return int(c.inChunk[i]), true
}

// find is the slot of fp in the table of the fingerprints added through
// FirstOf or FirstAt, or -1.
func (c *Candidates) find(fp uint64) int {
	t := &c.local
	if t.n == 0 {
		return -1
	}
	fp = tableKey(fp)
	for i := home(fp, len(t.keys)); ; i++ {
		if i == len(t.keys) {
			i = 0
		}
		switch t.keys[i] {
		case fp:
			return i
		case 0:
			return -1
		}
	}
}

// At returns the position of the candidate added for fp through FirstAt,
// if there is one.
func (c *Candidates) At(fp uint64) (int, bool) {
	fp = tableKey(fp)
	t := &c.local
	if t.keys == nil {
		return 0, false
	}
	for i := home(fp, len(t.keys)); ; i++ {
		if i == len(t.keys) {
			i = 0
		}
		switch t.keys[i] {
		case fp:
			return int(c.localAt[i]), true
		case 0:
			return 0, false
		}
	}
}

// growLocal doubles the local table, or makes it, keeping the positions.
func (c *Candidates) growLocal() {
	keys, at := c.local.keys, c.localAt
	size := max(2*len(keys), 1024)
	c.local.keys, c.localAt = make([]uint64, size), make([]int32, size)
	for j, k := range keys {
		if k == 0 {
			continue
		}
		i := home(k, size)
		for c.local.keys[i] != 0 {
			if i++; i == size {
				i = 0
			}
		}
		c.local.keys[i], c.localAt[i] = k, at[j]
	}
}

// Fresh reports whether the last Commit found candidate i new (a store
// that defers finds none new in Commit).
func (c *Candidates) Fresh(i int) bool { return i < len(c.fresh) && c.fresh[i] }

// Add appends a candidate with encoding enc; a nil enc takes the bytes
// appended to Data since the last candidate, which spares a copy. Its
// measures' values are appended to Vals separately.
func (c *Candidates) Add(fp uint64, parent, action uint32, mask uint64, enc []byte) {
	c.FPs = append(c.FPs, fp)
	c.Parents = append(c.Parents, parent)
	c.Actions = append(c.Actions, action)
	c.Masks = append(c.Masks, mask)
	c.Data = append(c.Data, enc...)
	c.ends = append(c.ends, uint32(len(c.Data)))
}

// Enc is candidate i's encoding.
func (c *Candidates) Enc(i int) []byte {
	from := uint32(0)
	if i > 0 {
		from = c.ends[i-1]
	}
	return c.Data[from:c.ends[i]]
}

// clearFresh sizes fresh for a commit, every candidate not new.
func (c *Candidates) clearFresh() {
	n := len(c.FPs)
	if cap(c.fresh) < n {
		c.fresh = make([]bool, n)
	}
	c.fresh = c.fresh[:n]
	clear(c.fresh)
}
