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
	// is kept once.
	local table
}

// Reset empties c, keeping its storage.
func (c *Candidates) Reset() {
	c.FPs, c.Parents, c.Actions, c.Masks, c.Vals = c.FPs[:0], c.Parents[:0], c.Actions[:0], c.Masks[:0], c.Vals[:0]
	c.Data, c.ends, c.fresh = c.Data[:0], c.ends[:0], c.fresh[:0]
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
