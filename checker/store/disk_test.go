package store

import (
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// The merge of several sorted runs gives every key once, ordered by
// fingerprint and then by position, as sorting them all at once does.
func TestKeyRunsMergeInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3*runKeys + 17} {
		k, err := openKeyRuns(t.TempDir()+"/keys", n%2 == 1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		var added []seqKey
		for i := 0; i < n; i++ {
			added = append(added, seqKey{fp: rng.Uint64() % uint64(n/3+1), seq: uint32(i)}) // many repeats
			if k.payload {
				added[i].payload = rng.Uint32()
			}
		}
		want := slices.Clone(added)
		sortKeys(want)
		for level := 0; level < 2; level++ { // the next level reuses the file
			for _, x := range added {
				if err := k.add(x.fp, x.seq, x.payload); err != nil {
					t.Fatal(err)
				}
			}
			var got []seqKey
			if err := k.merge(func(x seqKey) error { got = append(got, x); return nil }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d level %d: merge gave %d keys, not the %d sorted ones", n, level, len(got), len(want))
			}
		}
		k.close()
	}
}

// Delayed duplicate detection marks the first candidate of each fingerprint
// not stored by an earlier level, and nothing else; the candidates it gives
// back are those, in order, with everything they carry.
func TestDDDKeepsTheFirstOfEachNewState(t *testing.T) {
	dir := t.TempDir()
	st, err := openRunSet(dir+"/visited", false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	d, err := openDDD(dir, 1, 1<<18, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	fp := func(i uint64) uint64 { return i * 0x9E3779B97F4A7C15 }
	const n = runKeys + 5000 // more than one run
	stored := map[uint64]bool{}
	for level := 0; level < 2; level++ {
		var b1, b2 Candidates
		for i := uint64(0); i < n; i++ {
			x := fp(i + uint64(level)*n/2) // level 1 repeats half of level 0
			b1.Add(x, uint32(i), uint32(level), i%3, model.AppendUint(nil, x))
			b1.Vals = append(b1.Vals, int(i))
			b2.Data = model.AppendUint(b2.Data, x)
			b2.Add(x, 7, 7, 0, nil) // a later duplicate of every candidate
			b2.Vals = append(b2.Vals, -1)
		}
		for _, b := range []*Candidates{&b1, &b2} {
			if err := d.add(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.resolve(st); err != nil {
			t.Fatal(err)
		}
		var got []uint64
		err := d.each(func(c *Candidates, j int) bool {
			i := uint64(c.Parents[j])
			if c.Actions[j] != uint32(level) || c.Masks[j] != i%3 || c.Vals[0] != int(i) || !slices.Equal(c.Enc(j), model.AppendUint(nil, c.FPs[j])) {
				t.Fatalf("level %d: candidate %d of %+v does not carry what was added", level, j, c)
			}
			got = append(got, c.FPs[j])
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		var want []uint64
		for i := uint64(0); i < n; i++ {
			if x := fp(i + uint64(level)*n/2); !stored[x] {
				want = append(want, x)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("level %d: %d candidates committed, want %d", level, len(got), len(want))
		}
		for _, x := range want {
			stored[x] = true
		}
		if st.len() != int64(len(stored)) {
			t.Fatalf("level %d: store holds %d, want %d", level, st.len(), len(stored))
		}
		if err := d.reset(); err != nil {
			t.Fatal(err)
		}
	}
}

// With a payload, a new state is admitted with the union of the payloads of every
// candidate of it in the level, and a state stored before is reported once,
// with its index (its place in the order of admission) and the union of
// its candidates' marks, if that is not empty.
func TestDDDMergesPayloads(t *testing.T) {
	dir := t.TempDir()
	st, err := openRunSet(dir+"/visited", true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	reached := map[uint32]uint32{}
	marks := &DiskPayload{At: 1, Reached: func(id, m uint32) {
		if _, twice := reached[id]; twice {
			t.Fatalf("state %d reported twice", id)
		}
		reached[id] = m
	}}
	d, err := openDDD(dir, 2, 1<<18, marks)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	fp := func(i uint64) uint64 { return i * 0x9E3779B97F4A7C15 }
	const n = runKeys + 5000 // more than one sorted run of keys
	index := map[uint64]uint32{}
	for level := 0; level < 2; level++ {
		clear(reached)
		want := map[uint64]uint32{} // the union of each state's candidates' marks
		var b Candidates
		for r := uint64(0); r < 3; r++ { // every state three times, marks 1, 2 or 4 or none
			for i := uint64(0); i < n; i++ {
				x := fp(i + uint64(level)*n/2) // level 1 repeats half of level 0
				m := uint32(0)
				if (i+r)%4 != 0 {
					m = 1 << ((i + r) % 3)
				}
				want[x] |= m
				b.Add(x, uint32(i), 0, 0, model.AppendUint(nil, x))
				b.Vals = append(b.Vals, int(i), int(m))
			}
		}
		if err := d.add(&b); err != nil {
			t.Fatal(err)
		}
		if err := d.resolve(st); err != nil {
			t.Fatal(err)
		}
		admitted := 0
		err := d.each(func(c *Candidates, j int) bool {
			x := c.FPs[j]
			if _, ok := index[x]; ok {
				t.Fatalf("level %d: %x admitted again", level, x)
			}
			if uint32(c.Vals[1]) != want[x] {
				t.Fatalf("level %d: %x admitted with marks %b, want %b", level, x, c.Vals[1], want[x])
			}
			index[x] = uint32(len(index))
			admitted++
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		for x, m := range want {
			id, ok := index[x]
			switch {
			case !ok:
				t.Fatalf("level %d: %x not admitted", level, x)
			case id < uint32(len(index)-admitted) && m != 0 && reached[id] != m:
				t.Fatalf("level %d: stored state %d reached with marks %b, want %b", level, id, reached[id], m)
			case id < uint32(len(index)-admitted):
				delete(reached, id)
			}
		}
		if len(reached) != 0 || level == 1 && admitted != n/2 {
			t.Fatalf("level %d: %d states reported that are not stored, %d admitted", level, len(reached), admitted)
		}
		if err := d.reset(); err != nil {
			t.Fatal(err)
		}
	}
	all := slices.Sorted(maps.Keys(index))
	ids := make([]uint32, len(all))
	if err := st.locate(all, ids); err != nil {
		t.Fatal(err)
	}
	for i, x := range all {
		if ids[i] != index[x] {
			t.Fatalf("%x located at %d, admitted as %d", x, ids[i], index[x])
		}
	}
}

// levelOf adds one level's fingerprints to st, as ddd.resolve does, and
// returns which were new; it records in ids the index each new one is
// given, if ids is not nil.
func levelOf(t *testing.T, st *runSet, fps []uint64, ids map[uint64]uint32) []bool {
	t.Helper()
	fps = slices.Clone(fps)
	slices.Sort(fps)
	isNew, found := make([]bool, len(fps)), make([]uint32, len(fps))
	seqs := make([]uint32, len(fps))
	for i := range seqs {
		seqs[i] = uint32(i)
	}
	base := uint32(st.len())
	if err := st.begin(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(fps); i += 1000 { // in chunks, as resolve asks
		j := min(i+1000, len(fps))
		if err := st.addNew(fps[i:j], seqs[i:j], isNew[i:j], found[i:j]); err != nil {
			t.Fatal(err)
		}
	}
	// A state's index: those stored before, then its fingerprint's
	// position (not the candidates' order, as in resolve, but any order
	// will do here).
	if err := st.end(func(seq uint32) uint32 { return base + seq }); err != nil {
		t.Fatal(err)
	}
	for i, fp := range fps {
		if ids == nil {
			continue
		}
		if isNew[i] {
			ids[fp] = base + uint32(i)
		} else if found[i] != ids[fp] {
			t.Fatalf("fingerprint %x found with index %d, stored with %d", fp, found[i], ids[fp])
		}
	}
	return isNew
}

// The runs answer like a set through their merges, and a set restored to
// a checkpoint's manifest holds exactly what it held then, even after runs
// it listed were merged away; the runs written later are deleted. Each
// stored state keeps the index it was given, through the rewrite of its
// level's run and the merges: lookups and Locate find it.
func TestRunSetMergesAndRestores(t *testing.T) {
	dir := t.TempDir()
	st, err := openRunSet(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	st.keep = true
	rng := rand.New(rand.NewPCG(3, 4))
	set := map[uint64]bool{}
	ids := map[uint64]uint32{}
	var atCheckpoint map[uint64]bool
	var manifest []runEntry
	for level := 0; level < 12; level++ {
		var fps []uint64
		for i := 0; i < 300*(level+1); i++ {
			fp := rng.Uint64()
			if len(set) > 0 && i%3 == 0 { // a third revisit stored states
				for x := range set {
					fp = x
					break
				}
			}
			fps = append(fps, fp)
		}
		fps = append(fps, 0, ^uint64(0)) // the extremes, from level 1 on already stored
		slices.Sort(fps)
		fps = slices.Compact(fps)
		isNew := levelOf(t, st, fps, ids)
		for i, fp := range fps {
			if isNew[i] == set[fp] {
				t.Fatalf("level %d: fingerprint %x new %v, stored before %v", level, fp, isNew[i], set[fp])
			}
			set[fp] = true
		}
		if st.len() != int64(len(set)) || len(st.runs) > 8 {
			t.Fatalf("level %d: %d fingerprints in %d runs, want %d in few", level, st.len(), len(st.runs), len(set))
		}
		if level == 5 {
			if err := st.sync(); err != nil {
				t.Fatal(err)
			}
			manifest, atCheckpoint = st.manifest(), maps.Clone(set)
			if err := st.forgetRetired(); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := slices.Sorted(maps.Keys(set))
	located := make([]uint32, len(all))
	if err := st.locate(all, located); err != nil {
		t.Fatal(err)
	}
	for i, fp := range all {
		if located[i] != ids[fp] {
			t.Fatalf("Locate finds %x at index %d, stored with %d", fp, located[i], ids[fp])
		}
	}
	if err := st.restore(manifest); err != nil {
		t.Fatal(err)
	}
	if st.len() != int64(len(atCheckpoint)) {
		t.Fatalf("restored store holds %d, the checkpoint %d", st.len(), len(atCheckpoint))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(manifest) {
		t.Fatalf("%d files after restore, %d runs listed", len(entries), len(manifest))
	}
	isNew := levelOf(t, st, all, nil)
	for i, fp := range all {
		if isNew[i] == atCheckpoint[fp] {
			t.Fatalf("after restore: %x new %v, stored at the checkpoint %v", fp, isNew[i], atCheckpoint[fp])
		}
	}
	if err := st.restore([]runEntry{{name: "run-99999", n: 3}}); err == nil {
		t.Fatal("restore to a missing run succeeded")
	}
}

// sortKeys orders by fingerprint, then position, whether fingerprints are
// spread evenly (the radix path) or crowded (the comparison fallback).
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, spread := range []func() uint64{rng.Uint64, func() uint64 { return rng.Uint64() % 1000 }, func() uint64 { return rng.Uint64() >> 20 }} {
		for _, n := range []int{0, 5, 5000, 100000} {
			keys := make([]seqKey, n)
			for i := range keys {
				keys[i] = seqKey{fp: spread(), seq: uint32(rng.IntN(1 << 20))}
			}
			want := slices.Clone(keys)
			slices.SortFunc(want, cmpKeys)
			sortKeys(keys)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d: sortKeys differs from a comparison sort", n)
			}
		}
	}
}

// The files written and read back within a level are summed: a sorted run
// of keys or the candidates file whose bytes change between the write and
// the read is refused, naming the file.
func TestDiskStoreFilesAreChecked(t *testing.T) {
	dir := t.TempDir()
	var c *diskio.CorruptFile
	k, err := openKeyRuns(filepath.Join(dir, "keys"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer k.close()
	for i := range runKeys + 10 { // two runs
		k.add(uint64(i)*0x9E3779B97F4A7C15, uint32(i), 0)
	}
	k.spill()
	k.w.Flush()
	k.file.WriteAt([]byte{0xff}, runKeyBytes*runKeys+5) // in the second run
	if err := k.merge(func(seqKey) error { return nil }); !errors.As(err, &c) || !strings.Contains(err.Error(), "sorted run 1") {
		t.Fatalf("a corrupted sorted run: %v", err)
	}

	st, err := openRunSet(filepath.Join(dir, "visited"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	d, err := openDDD(dir, 0, 1<<18, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	var b Candidates
	for i := uint64(1); i <= 1000; i++ {
		b.Add(i*0x9E3779B97F4A7C15, uint32(i), 0, 0, []byte{byte(i)})
	}
	if err := d.add(&b); err != nil {
		t.Fatal(err)
	}
	if err := d.resolve(st); err != nil {
		t.Fatal(err)
	}
	d.w.Flush()
	d.file.WriteAt([]byte{0xff}, 5000)
	if err := d.each(func(*Candidates, int) bool { return true }); !errors.As(err, &c) || !strings.Contains(err.Error(), "candidates") {
		t.Fatalf("a corrupted candidates file: %v", err)
	}
}
