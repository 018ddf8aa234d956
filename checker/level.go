package checker

// level is one breadth-first level: the encodings of its states back to
// back. States get their indices in the order they are committed, so a
// level's indices are consecutive from first and need not be stored.
type level struct {
	first uint32
	data  []byte
	ends  []uint32
}

func (l *level) len() int { return len(l.ends) }

// id is the index of the level's j-th state.
func (l *level) id(j int) uint32 { return l.first + uint32(j) }

// add appends the encoding of the state with the next index.
func (l *level) add(enc []byte) {
	l.data = append(l.data, enc...)
	l.ends = append(l.ends, uint32(len(l.data)))
}

// state is the encoding of the level's j-th state.
func (l *level) state(j int) []byte {
	from := uint32(0)
	if j > 0 {
		from = l.ends[j-1]
	}
	return l.data[from:l.ends[j]]
}

// reset empties the level for states numbered from first.
func (l *level) reset(first uint32) { l.first, l.data, l.ends = first, l.data[:0], l.ends[:0] }
