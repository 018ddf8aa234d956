package store

import (
	"bytes"
	"testing"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// payloadLevel commits the candidates fps[i] with marks marks(i), as value
// 1 of 2, in two batches of one round, the second repeating the first with
// other marks, which must not replace the first's.
func payloadLevel(t *testing.T, st WithPayload, fps []uint64, marks func(i int) uint32, workers int) {
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

// checkPayloads checks that the states fps[i] have marks marks(i), recent
// exactly when recent(i), both by Payload and by PayloadAll, and that
// PayloadAll finds nothing of the states absent.
func checkPayloads(t *testing.T, st WithPayload, fps, absent []uint64, marks func(i int) uint32, recent func(i int) bool) {
	t.Helper()
	var all []uint64
	for i, fp := range fps {
		m, r, stored := st.Payload(fp)
		if !stored || m != marks(i) || r != recent(i) {
			t.Fatalf("state %d: marks %d recent %v stored %v, want %d %v", i, m, r, stored, marks(i), recent(i))
		}
		all = append(all, fp)
	}
	seen, got := st.PayloadAll(append(all, absent...), nil, nil)
	if len(seen) != len(fps)+len(absent) || len(got) != len(seen) {
		t.Fatalf("PayloadAll answered %d and %d of %d fingerprints", len(seen), len(got), len(fps)+len(absent))
	}
	for i := range seen {
		if in := i < len(fps); seen[i] != in || (in && got[i] != marks(i)) || (!in && got[i] != 0) {
			t.Fatalf("PayloadAll, candidate %d: seen %v marks %d", i, seen[i], got[i])
		}
	}
}

// A store with a payload gives each new state its first candidate's payload, keeps
// them as its tables grow and as they are raised, tells the states stored
// since NewLevel, and refuses a checkpoint (the search that keeps marks
// takes none).
func TestPayloadStoreKeepsPayloads(t *testing.T) {
	layout := PayloadLayout{Bits: 3, Vals: 2, At: 1}
	var fps []uint64
	for i := uint64(0); i < 60000; i++ {
		fps = append(fps, fpOf(i))
	}
	marks := func(i int) uint32 { return uint32(i*5) % 8 }
	for _, workers := range []int{1, 2} {
		st := NewPayloadMemory(layout)
		payloadLevel(t, st, fps[:30000], marks, workers)
		checkPayloads(t, st, fps[:30000], fps[30000:30100], marks, func(int) bool { return true })
		st.NewLevel()
		payloadLevel(t, st, fps[20000:], func(i int) uint32 { return marks(i + 20000) }, workers)
		checkPayloads(t, st, fps, nil, marks, func(i int) bool { return i >= 30000 })
		st.SetPayload(fps[12345], 6)
		raised := func(i int) uint32 {
			if i == 12345 {
				return 6
			}
			return marks(i)
		}
		checkPayloads(t, st, fps, nil, raised, func(i int) bool { return i >= 30000 })
		var buf bytes.Buffer
		if err := st.Checkpoint(diskio.NewSectionWriter(&buf, 1<<10)); err == nil {
			t.Fatal("a visited set with marks was checkpointed")
		}
		st.Close()
	}
}
