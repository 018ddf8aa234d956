package store

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// stores makes one of each store, the disk store in dir.
func stores(t *testing.T) map[string]func() Store {
	t.Helper()
	return map[string]func() Store{
		"memory":         NewMemory,
		"indexed memory": func() Store { return NewIndexedMemory() },
		"exact":          func() Store { return NewExact() },
		"disk": func() Store {
			st, err := OpenDisk(t.TempDir(), 0, 1<<18, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
}

// fpOf spreads i over the fingerprints, top bits (the shards) included.
func fpOf(i uint64) uint64 { return i * 0x9E3779B97F4A7C15 }

// level commits the candidates fps[i] (encoded as model.AppendUint of the
// fingerprint), in two batches of one round, the second repeating the
// first, ends the level, and returns the fingerprints admitted, in order.
func level(t *testing.T, st Store, fps []uint64, workers int) []uint64 {
	t.Helper()
	var b1, b2 Candidates
	for _, fp := range fps {
		b1.Add(fp, 0, 0, 0, model.AppendUint(nil, fp))
		b2.Add(fp, 0, 0, 0, model.AppendUint(nil, fp))
	}
	var got []uint64
	admit := func(c *Candidates, i int) bool {
		if c == &b2 {
			t.Fatalf("a duplicate of the round's first batch was admitted")
		}
		got = append(got, c.FPs[i])
		return true
	}
	if err := st.Commit([]*Candidates{&b1, &b2}, workers, admit); err != nil {
		t.Fatal(err)
	}
	if err := st.EndLevel(admit); err != nil {
		t.Fatal(err)
	}
	return got
}

// Every store admits the first of each state not stored before, in the
// round's order, whatever the number of workers; what it admitted it then
// holds.
func TestStoresAdmitTheFirstOfEachNewStateInOrder(t *testing.T) {
	for name, mk := range stores(t) {
		for _, workers := range []int{1, 2, 3} {
			st := mk()
			var first, second, want []uint64
			for i := uint64(0); i < 50000; i++ {
				first = append(first, fpOf(i))
				second = append(second, fpOf(i+25000)) // half stored already
			}
			if got := level(t, st, first, workers); !slices.Equal(got, first) {
				t.Fatalf("%s, %d workers: admitted %d of %d new states, or out of order", name, workers, len(got), len(first))
			}
			want = second[25000:]
			if got := level(t, st, second, workers); !slices.Equal(got, want) {
				t.Fatalf("%s, %d workers: the second level admitted %d, want %d", name, workers, len(got), len(want))
			}
			if st.Len() != 75000 {
				t.Fatalf("%s: Len %d, want 75000", name, st.Len())
			}
			st.Close()
		}
	}
}

// A store that answers lookups (all but the disk store's, which defers)
// sees what it committed and nothing else.
func TestSeenAllSeesWhatWasCommitted(t *testing.T) {
	for name, mk := range stores(t) {
		if name == "disk" {
			continue
		}
		st := mk()
		var fps []uint64
		for i := uint64(0); i < 1000; i++ {
			fps = append(fps, fpOf(i))
		}
		level(t, st, fps, 2)
		var c Candidates
		for i := uint64(990); i < 1010; i++ {
			c.Add(fpOf(i), 0, 0, 0, model.AppendUint(nil, fpOf(i)))
		}
		for i, seen := range st.SeenAll(&c, nil) {
			if seen != (i < 10) {
				t.Fatalf("%s: candidate %d seen %v", name, 990+i, seen)
			}
		}
		st.Close()
	}
}

// NoteInChunk finds a successor in its chunk exactly when the chunk took
// its fingerprint (FirstOf or FirstAt), at FirstAt's position, and
// SeenAll's answers are what they are without the notes: such a state is
// not stored.
func TestSeenAllAnswersForTheChunksOwnCandidates(t *testing.T) {
	for name, mk := range stores(t) {
		if name == "disk" {
			continue
		}
		for _, firstAt := range []bool{false, true} {
			st := mk()
			var stored []uint64
			for i := uint64(0); i < 100; i++ {
				stored = append(stored, fpOf(i))
			}
			level(t, st, stored, 1)
			var chunk, succ Candidates
			for i := uint64(100); i < 110; i++ { // candidates of the chunk
				if firstAt {
					chunk.FirstAt(fpOf(i))
				} else {
					chunk.FirstOf(fpOf(i))
				}
				chunk.Add(fpOf(i), 0, 0, 0, model.AppendUint(nil, fpOf(i)))
			}
			var want []bool
			for _, i := range []uint64{105, 5, 120, 109, 99, 0, 110} {
				succ.Add(fpOf(i), 0, 0, 0, model.AppendUint(nil, fpOf(i)))
				in := succ.NoteInChunk(&chunk)
				if in != (i >= 100 && i < 110) || succ.InChunk(succ.Len()-1) != in {
					t.Fatalf("%s: state %d noted in the chunk: %v", name, i, in)
				}
				if at, ok := succ.ChunkAt(succ.Len() - 1); firstAt && in {
					if want, _ := chunk.FirstAt(fpOf(i)); !ok || at != want {
						t.Fatalf("%s: state %d at %d in the chunk (%v), FirstAt says %d", name, i, at, ok, want)
					}
				}
				want = append(want, i < 100)
			}
			if got := st.SeenAll(&succ, nil); !slices.Equal(got, want) {
				t.Fatalf("%s (FirstAt %v): SeenAll %v, want %v", name, firstAt, got, want)
			}
			st.Close()
		}
	}
}

// An indexed store numbers the states it admits consecutively, in order,
// from the number stored before.
func TestIndexedStoresNumberTheStatesInOrder(t *testing.T) {
	for name, mk := range map[string]func() Indexed{"memory": NewIndexedMemory, "exact": NewExact} {
		st := mk()
		var fps []uint64
		for i := uint64(0); i < 3000; i++ {
			fps = append(fps, fpOf(i))
		}
		level(t, st, fps[:1000], 2)
		level(t, st, fps[500:], 3)
		for i, fp := range fps {
			if got := st.IndexOf(fp, model.AppendUint(nil, fp)); got != uint32(i) {
				t.Fatalf("%s: state %d has index %d", name, i, got)
			}
		}
		if got := st.IndexOf(fpOf(5000), model.AppendUint(nil, fpOf(5000))); got != NotStored {
			t.Fatalf("%s: an absent state has index %d", name, got)
		}
		st.Close()
	}
}

// A store restored from its checkpoint section holds what it held when the
// section was written: a level then admits exactly the states not stored
// by then, and an indexed store the same indices. A section of the wrong
// count, or cut short, is refused.
func TestStoresRecoverFromTheirCheckpoint(t *testing.T) {
	for name, mk := range stores(t) {
		if name == "exact" {
			continue // refused
		}
		inMemory := name == "memory" || name == "indexed memory"
		st := mk()
		var fps []uint64
		for i := uint64(0); i < 20000; i++ {
			fps = append(fps, fpOf(i))
		}
		level(t, st, fps[:10000], 2)
		var buf bytes.Buffer
		w := diskio.NewSectionWriter(&buf, 1<<10)
		if err := st.Checkpoint(w); err != nil || w.Flush() != nil {
			t.Fatalf("%s: checkpoint: %v", name, err)
		}
		if err := st.Committed(); err != nil {
			t.Fatal(err)
		}
		level(t, st, fps[10000:], 2) // progress the checkpoint does not hold
		section := buf.Bytes()
		if inMemory {
			st.Close()
			st = mk()
		}
		if err := st.Recover(diskio.NewSection(section), 10001); err == nil {
			t.Fatalf("%s: a section of 10000 states recovered as 10001", name)
		}
		if inMemory {
			st = mk()
			if err := st.Recover(diskio.NewSection(section[:len(section)-3]), 10000); err == nil {
				t.Fatalf("%s: a section cut short was recovered", name)
			}
			st = mk()
		}
		if err := st.Recover(diskio.NewSection(section), 10000); err != nil {
			t.Fatalf("%s: recover: %v", name, err)
		}
		if got := level(t, st, fps[5000:15000], 1); !slices.Equal(got, fps[10000:15000]) {
			t.Fatalf("%s: after recovery a level admitted %d states, want the %d not checkpointed", name, len(got), 5000)
		}
		if name == "indexed memory" {
			ix := st.(Indexed)
			for i, fp := range fps[:15000] {
				if got := ix.IndexOf(fp, nil); got != uint32(i) {
					t.Fatalf("%s: after recovery state %d has index %d", name, i, got)
				}
			}
		}
		st.Close()
	}
}

// The exact store refuses to checkpoint: a section would hold every state
// in full.
func TestExactStoreRefusesACheckpoint(t *testing.T) {
	var buf bytes.Buffer
	if err := NewExact().Checkpoint(diskio.NewSectionWriter(&buf, 16)); err == nil {
		t.Fatal("the exact store wrote a checkpoint section")
	}
}

// A memory store restored from its checkpoint section has tables of the
// sizes the run that wrote it had grown them to (memory.Recover sizes each
// shard's table for its keys at once): a resumed run holds no more memory
// than the uninterrupted one, and holds every state with its index.
func TestMemoryRecoverSizesTheTablesAsTheRunDid(t *testing.T) {
	for name, mk := range map[string]func() Store{"memory": NewMemory, "indexed memory": func() Store { return NewIndexedMemory() }} {
		st := mk()
		fps := make([]uint64, 300000)
		for i := range fps {
			fps[i] = fpOf(uint64(i))
		}
		level(t, st, fps, 2)
		var buf bytes.Buffer
		w := diskio.NewSectionWriter(&buf, 1<<16)
		if err := st.Checkpoint(w); err != nil || w.Flush() != nil {
			t.Fatalf("%s: checkpoint: %v", name, err)
		}
		want := st.Bytes()
		st.Close()
		st = mk()
		if err := st.Recover(diskio.NewSection(buf.Bytes()), int64(len(fps))); err != nil {
			t.Fatalf("%s: recover: %v", name, err)
		}
		if got := st.Bytes(); got != want {
			t.Fatalf("%s: the recovered tables hold %d bytes, the run's %d", name, got, want)
		}
		if got := level(t, st, fps, 1); len(got) != 0 {
			t.Fatalf("%s: after recovery %d stored states were admitted again", name, len(got))
		}
		if name == "indexed memory" {
			ix := st.(Indexed)
			for i, fp := range fps {
				if got := ix.IndexOf(fp, nil); got != uint32(i) {
					t.Fatalf("%s: after recovery state %d has index %d", name, i, got)
				}
			}
		}
		st.Close()
	}
}

// BenchmarkMemoryRecover restores a visited set of a million states from
// its checkpoint section: the keys come shard by shard in the order of
// their slots, which, inserted into tables that grow as they fill, once
// piled up into clusters that every later key probed through.
func BenchmarkMemoryRecover(b *testing.B) {
	st := NewMemory()
	var c Candidates
	for i := uint64(0); i < 1<<20; i++ {
		c.Add(fpOf(i), 0, 0, 0, nil)
	}
	if err := st.Commit([]*Candidates{&c}, 1, func(*Candidates, int) bool { return true }); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	w := diskio.NewSectionWriter(&buf, 1<<16)
	if err := st.Checkpoint(w); err != nil || w.Flush() != nil {
		b.Fatal(err)
	}
	st.Close()
	b.ResetTimer()
	for range b.N {
		st := NewMemory()
		if err := st.Recover(diskio.NewSection(buf.Bytes()), 1<<20); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}
