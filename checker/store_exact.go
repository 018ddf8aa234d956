package checker

// exactStore keeps every state's full encoding, so no two states can be
// confused: it validates fingerprint runs on small models (--exact). It
// costs the encoding's size plus a Go map entry per state. The map's value
// is the state's index, which partial-order reduction asks for.
type exactStore struct {
	set   map[string]uint32
	bytes int64
}

func newExactStore() *exactStore { return &exactStore{set: map[string]uint32{}} }

func (x *exactStore) Seen(_ uint64, enc []byte) bool {
	_, ok := x.set[string(enc)]
	return ok
}

func (x *exactStore) SeenAll(b *batch, seen []bool) []bool {
	seen = seen[:0]
	for i := range b.fps {
		seen = append(seen, x.Seen(0, b.enc(i)))
	}
	return seen
}

func (x *exactStore) Commit(batches []*batch, _ int) error {
	for _, b := range batches {
		for i := range b.fps {
			enc := b.enc(i)
			if _, ok := x.set[string(enc)]; ok {
				continue
			}
			x.set[string(enc)] = notStored
			x.bytes += int64(len(enc)) + 48
			b.fresh[i] = true
		}
	}
	return nil
}

func (x *exactStore) IndexOf(_ uint64, enc []byte) uint32 {
	if id, ok := x.set[string(enc)]; ok {
		return id
	}
	return notStored
}

func (x *exactStore) SetIndices(batches []*batch, first uint32, _ int) {
	for _, b := range batches {
		for i := range b.fps {
			if b.fresh[i] {
				x.set[string(b.enc(i))] = first
				first++
			}
		}
	}
}

func (x *exactStore) Len() int64   { return int64(len(x.set)) }
func (x *exactStore) Bytes() int64 { return x.bytes }
func (x *exactStore) Close() error { return nil }
