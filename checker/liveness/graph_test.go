package liveness

import (
	"path/filepath"
	"testing"
)

func TestFingerprintIndexFindsWhatItStored(t *testing.T) {
	var fp column[uint64]
	x := newFingerprintIndex(&fp)
	for i := uint64(0); i < 100000; i++ {
		fp.push(i * 0x9E3779B97F4A7C15)
		x.add(nil, i*0x9E3779B97F4A7C15, uint32(i))
	}
	for i := uint64(0); i < 100000; i++ {
		if id, ok := x.find(nil, i*0x9E3779B97F4A7C15); !ok || id != uint32(i) {
			t.Fatalf("find %d: %d %v", i, id, ok)
		}
	}
	if _, ok := x.find(nil, 12345); ok {
		t.Fatal("found a fingerprint never stored")
	}
}

// TestActionColumnWidens checks that the codes widen from one byte to two
// and four as distinct actions arrive, and that a spilled column reads
// back the same actions from its file.
func TestActionColumnWidens(t *testing.T) {
	for _, spillAt := range []int{-1, 0, 300, 70000, 200000} {
		a := newActionColumn()
		const n = 3 * chunkLen
		action := func(e int) uint32 { return uint32(e%(70000+e/chunkLen)) * 7 }
		for e := 0; e < n; e++ {
			if e == spillAt {
				if err := a.spill(filepath.Join(t.TempDir(), "act")); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.push(action(e)); err != nil {
				t.Fatal(err)
			}
		}
		a.truncate(n - 5)
		if err := a.finish(); err != nil {
			t.Fatal(err)
		}
		if a.width != 4 {
			t.Fatalf("spill at %d: width %d after %d actions", spillAt, a.width, len(a.dict))
		}
		for e := 0; e < n-5; e++ {
			if got := a.at(e); got != action(e) {
				t.Fatalf("spill at %d: edge %d has action %d, want %d", spillAt, e, got, action(e))
			}
		}
		if err := a.free(); err != nil {
			t.Fatal(err)
		}
	}
}
