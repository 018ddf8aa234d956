package store

import (
	"bytes"
	"testing"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// markedLevel commits the candidates fps[i] with marks marks(i), as value
// 1 of 2, in two batches of one round, the second repeating the first with
// other marks, which must not replace the first's.
func markedLevel(t *testing.T, st Marked, fps []uint64, marks func(i int) uint32, workers int) {
	t.Helper()
	var b1, b2 Candidates
	for i, fp := range fps {
		b1.Add(fp, 0, 0, 0, model.AppendUint(nil, fp))
		b1.Vals = append(b1.Vals, 7, int(marks(i)))
		b2.Add(fp, 0, 0, 0, model.AppendUint(nil, fp))
		b2.Vals = append(b2.Vals, 7, int(^marks(i)&7))
	}
	if err := st.Commit([]*Candidates{&b1, &b2}, workers, func(*Candidates, int) bool { return true }); err != nil {
		t.Fatal(err)
	}
}

// checkMarks checks that the states fps[i] have marks marks(i), recent
// exactly when recent(i), both by Marks and by MarksAll, and that
// MarksAll finds nothing of the states absent.
func checkMarks(t *testing.T, st Marked, fps, absent []uint64, marks func(i int) uint32, recent func(i int) bool) {
	t.Helper()
	var all []uint64
	for i, fp := range fps {
		m, r, stored := st.Marks(fp)
		if !stored || m != marks(i) || r != recent(i) {
			t.Fatalf("state %d: marks %d recent %v stored %v, want %d %v", i, m, r, stored, marks(i), recent(i))
		}
		all = append(all, fp)
	}
	seen, got := st.MarksAll(append(all, absent...), nil, nil)
	if len(seen) != len(fps)+len(absent) || len(got) != len(seen) {
		t.Fatalf("MarksAll answered %d and %d of %d fingerprints", len(seen), len(got), len(fps)+len(absent))
	}
	for i := range seen {
		if in := i < len(fps); seen[i] != in || (in && got[i] != marks(i)) || (!in && got[i] != 0) {
			t.Fatalf("MarksAll, candidate %d: seen %v marks %d", i, seen[i], got[i])
		}
	}
}

// A marked store gives each new state its first candidate's marks, keeps
// them as its tables grow and as they are raised, tells the states stored
// since NewLevel, and refuses a checkpoint (the search that keeps marks
// takes none).
func TestMarkedStoreKeepsMarks(t *testing.T) {
	layout := MarkLayout{Bits: 3, Vals: 2, At: 1}
	var fps []uint64
	for i := uint64(0); i < 60000; i++ {
		fps = append(fps, fpOf(i))
	}
	marks := func(i int) uint32 { return uint32(i*5) % 8 }
	for _, workers := range []int{1, 2} {
		st := NewMarkedMemory(layout)
		markedLevel(t, st, fps[:30000], marks, workers)
		checkMarks(t, st, fps[:30000], fps[30000:30100], marks, func(int) bool { return true })
		st.NewLevel()
		markedLevel(t, st, fps[20000:], func(i int) uint32 { return marks(i + 20000) }, workers)
		checkMarks(t, st, fps, nil, marks, func(i int) bool { return i >= 30000 })
		st.SetMarks(fps[12345], 6)
		raised := func(i int) uint32 {
			if i == 12345 {
				return 6
			}
			return marks(i)
		}
		checkMarks(t, st, fps, nil, raised, func(i int) bool { return i >= 30000 })
		var buf bytes.Buffer
		if err := st.Checkpoint(diskio.NewSectionWriter(&buf, 1<<10)); err == nil {
			t.Fatal("a visited set with marks was checkpointed")
		}
		st.Close()
	}
}
