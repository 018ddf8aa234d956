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

	"mc/checker/internal/diskio"
	"mc/model"
)

// The merge of several sorted runs gives every key once, ordered by
// fingerprint and then by position, as sorting them all at once does.
func TestKeyRunsMergeInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3*runKeys + 17} {
		k, err := openKeyRuns(t.TempDir() + "/keys")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		var added []seqKey
		for i := 0; i < n; i++ {
			added = append(added, seqKey{fp: rng.Uint64() % uint64(n/3+1), seq: uint32(i)}) // many repeats
		}
		want := slices.Clone(added)
		sortKeys(want)
		for level := 0; level < 2; level++ { // the next level reuses the file
			for _, x := range added {
				if err := k.add(x.fp, x.seq); err != nil {
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
	st, err := openRunSet(dir + "/visited")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	d, err := openDDD(dir, 1, 1<<18)
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

// levelOf adds one level's fingerprints to st, as ddd.resolve does, and
// returns which were new.
func levelOf(t *testing.T, st *runSet, fps []uint64) []bool {
	t.Helper()
	fps = slices.Clone(fps)
	slices.Sort(fps)
	isNew := make([]bool, len(fps))
	if err := st.begin(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(fps); i += 1000 { // in chunks, as resolve asks
		j := min(i+1000, len(fps))
		if err := st.addNew(fps[i:j], isNew[i:j]); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.end(); err != nil {
		t.Fatal(err)
	}
	return isNew
}

// The runs answer like a set through their merges, and a set restored to
// a checkpoint's manifest holds exactly what it held then, even after runs
// it listed were merged away; the runs written later are deleted.
func TestRunSetMergesAndRestores(t *testing.T) {
	dir := t.TempDir()
	st, err := openRunSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.keep = true
	rng := rand.New(rand.NewPCG(3, 4))
	set := map[uint64]bool{}
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
		isNew := levelOf(t, st, fps)
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
	var all []uint64
	for fp := range set {
		all = append(all, fp)
	}
	isNew := levelOf(t, st, all)
	for i, fp := range slices.Sorted(slices.Values(all)) {
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
	k, err := openKeyRuns(filepath.Join(dir, "keys"))
	if err != nil {
		t.Fatal(err)
	}
	defer k.close()
	for i := range runKeys + 10 { // two runs
		k.add(uint64(i)*0x9E3779B97F4A7C15, uint32(i))
	}
	k.spill()
	k.w.Flush()
	k.file.WriteAt([]byte{0xff}, runKeyBytes*runKeys+5) // in the second run
	if err := k.merge(func(seqKey) error { return nil }); !errors.As(err, &c) || !strings.Contains(err.Error(), "sorted run 1") {
		t.Fatalf("a corrupted sorted run: %v", err)
	}

	st, err := openRunSet(filepath.Join(dir, "visited"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	d, err := openDDD(dir, 0, 1<<18)
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
