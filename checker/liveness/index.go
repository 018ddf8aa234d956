package liveness

// stateIndex maps a state to its number in the graph while the graph is
// built; the build drops it when it is done (nothing after looks a state
// up by its encoding).
type stateIndex interface {
	find(enc []byte, fp uint64) (uint32, bool)
	add(enc []byte, fp uint64, id uint32)
	bytes() int64
}

// fingerprintIndex is an open-addressing table of state numbers with linear
// probing, keyed by the states' fingerprints, which it reads from the
// graph's fingerprint column instead of storing them again: 4 bytes a slot,
// at most 3/4 full (it doubles then), so 5 to 11 bytes per state.
type fingerprintIndex struct {
	fp    *column[uint64]
	slots []uint32 // state number + 1; 0 is an empty slot
	n     int
}

func newFingerprintIndex(fp *column[uint64]) *fingerprintIndex {
	return &fingerprintIndex{fp: fp, slots: make([]uint32, 1<<10)}
}

// slot is where fp is, or the empty slot where it would go.
func (t *fingerprintIndex) slot(fp uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return int(i), false
		}
		if t.fp.at(int(s-1)) == fp {
			return int(i), true
		}
	}
}

func (t *fingerprintIndex) find(_ []byte, fp uint64) (uint32, bool) {
	i, ok := t.slot(fp)
	return t.slots[i] - 1, ok
}

// add records that state id, whose fingerprint is already in the column,
// has fingerprint fp.
func (t *fingerprintIndex) add(_ []byte, fp uint64, id uint32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]uint32, 2*len(old))
		for _, s := range old {
			if s != 0 {
				i, _ := t.slot(t.fp.at(int(s - 1)))
				t.slots[i] = s
			}
		}
	}
	i, _ := t.slot(fp)
	t.slots[i] = id + 1
	t.n++
}

func (t *fingerprintIndex) bytes() int64 { return int64(cap(t.slots)) * 4 }

// exactIndex keys states by their full encodings (Limits.Exact): no
// collision can merge two states, at the cost of the encodings' memory.
type exactIndex struct {
	ids  map[string]uint32
	size int64 // bytes of the encodings held
}

func (x *exactIndex) find(enc []byte, _ uint64) (uint32, bool) {
	id, ok := x.ids[string(enc)]
	return id, ok
}

func (x *exactIndex) add(enc []byte, _ uint64, id uint32) {
	x.ids[string(enc)] = id
	x.size += int64(len(enc))
}

// bytes estimates the map's memory: its entries (about 40 bytes each) and
// the encodings.
func (x *exactIndex) bytes() int64 { return int64(len(x.ids))*40 + x.size }
