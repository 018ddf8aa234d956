package checker

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// levelStates are encodings of many lengths, enough to fill several blocks,
// so that some states do not fit in the rest of a block.
func levelStates() [][]byte {
	var states [][]byte
	for j := 0; j < 4000; j++ {
		enc := bytes.Repeat([]byte{byte(j), byte(j >> 8)}, (j*7919)%700)
		states = append(states, enc)
	}
	return states
}

// A level in memory returns every state as added, also after the blocks of
// the states before a round are released, and gives its blocks back.
func TestLevelKeepsStatesAcrossBlocks(t *testing.T) {
	var pool blockPool
	defer pool.close()
	l := &level{pool: &pool}
	states := levelStates()
	for _, enc := range states {
		if err := l.add(enc); err != nil {
			t.Fatal(err)
		}
	}
	if len(l.blocks) < 4 {
		t.Fatalf("the states fill %d blocks; the test wants several", len(l.blocks))
	}
	for lo := 0; lo < len(states); lo += 500 {
		l.release(lo)
		for j := lo; j < len(states); j++ {
			if !bytes.Equal(l.state(j), states[j]) {
				t.Fatalf("state %d after releasing up to %d: got %d bytes, want %d", j, lo, len(l.state(j)), len(states[j]))
			}
		}
	}
	l.release(len(states))
	if l.bytes() != 0 {
		t.Fatalf("a fully released level holds %d bytes", l.bytes())
	}
	if err := l.reset(0); err != nil || len(l.blocks) != 0 {
		t.Fatalf("reset: %v, %d blocks left", err, len(l.blocks))
	}
	if err := l.add(make([]byte, levelBlock+1)); err == nil || !strings.Contains(err.Error(), "encoding") {
		t.Fatalf("an encoding larger than a block gave %v", err)
	}
}

// A spilled level reads its states back by windows, as written.
func TestSpilledLevelReadsWindowsInOrder(t *testing.T) {
	var pool blockPool
	defer pool.close()
	l, err := spillLevel(filepath.Join(t.TempDir(), "level"), &pool)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	states := levelStates()
	for _, enc := range states {
		if err := l.add(enc); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.finish(); err != nil {
		t.Fatal(err)
	}
	readWindows(t, l, states)
	if err := l.window(0, 1); err == nil {
		t.Fatal("a window out of order was accepted")
	}
}

// ringStates are encodings like a ring protocol's: wide slots of small
// values, neighbours differing in a few bytes, some longer than the one
// before and some shorter.
func ringStates() [][]byte {
	var states [][]byte
	for j := 0; j < 60000; j++ {
		enc := make([]byte, 64+j%3)
		for k := 0; k < 8; k++ {
			enc[k] = 1
		}
		enc[40+j%7] = byte(j)
		enc[50] = byte(j >> 8)
		states = append(states, enc)
	}
	return states
}

// A packed level reads its states back by windows as added, whatever their
// lengths and however well they pack, gives back the blocks a window has
// read, and is read whole (each) before its first window.
func TestPackedLevelReadsWindowsInOrder(t *testing.T) {
	for name, states := range map[string][][]byte{"mixed": levelStates(), "ring": ringStates(), "noise": noiseStates()} {
		t.Run(name, func(t *testing.T) {
			var pool blockPool
			defer pool.close()
			l := packedLevel(&pool)
			defer l.close()
			for _, enc := range states {
				if err := l.add(enc); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.finish(); err != nil {
				t.Fatal(err)
			}
			j := 0
			if err := l.each(func(enc []byte) error {
				if !bytes.Equal(enc, states[j]) {
					t.Fatalf("each: state %d: got %x, want %x", j, enc, states[j])
				}
				j++
				return nil
			}); err != nil || j != len(states) {
				t.Fatalf("each read %d states of %d: %v", j, len(states), err)
			}
			held := l.packed.bytes()
			readWindows(t, l, states)
			if held <= levelBlock {
				t.Fatalf("the states fill %d bytes of blocks; the test wants several blocks", held)
			}
			if l.packed.bytes() >= held {
				t.Fatalf("the windows gave back no block: %d bytes held of %d", l.packed.bytes(), held)
			}
			if err := l.window(0, 1); err == nil {
				t.Fatal("a window out of order was accepted")
			}
			if err := l.finish(); err == nil {
				t.Fatal("a level whose blocks were given back was rewound")
			}
		})
	}
}

// States that differ from the one before in a few bytes take a fraction of
// their size packed; states that do not pack take their size and a header.
func TestPackedLevelPacksNeighbours(t *testing.T) {
	var pool blockPool
	defer pool.close()
	l := packedLevel(&pool)
	defer l.close()
	states, raw := ringStates(), 0
	for _, enc := range states {
		raw += len(enc)
		if err := l.add(enc); err != nil {
			t.Fatal(err)
		}
	}
	if got := packedSize(l.packed); got*4 > raw {
		t.Fatalf("%d states of %d bytes pack into %d bytes; want at most a quarter", len(states), raw, got)
	}
	l = packedLevel(&pool)
	defer l.close()
	states, raw = noiseStates(), 0
	for _, enc := range states {
		raw += len(enc)
		if err := l.add(enc); err != nil {
			t.Fatal(err)
		}
	}
	if got := packedSize(l.packed); got > raw+packHeader*len(states) {
		t.Fatalf("%d states of %d bytes take %d bytes packed; want at most a header more each", len(states), raw, got)
	}
	if err := l.add(make([]byte, maxEncoding+1)); err == nil || !strings.Contains(err.Error(), "encoding") {
		t.Fatalf("an encoding larger than a block gave %v", err)
	}
	if err := l.add(make([]byte, maxEncoding)); err != nil {
		t.Fatalf("the largest encoding: %v", err)
	}
}

// noiseStates are encodings whose bytes look random: they do not pack.
func noiseStates() [][]byte {
	var states [][]byte
	x := uint64(88172645463325252)
	for j := 0; j < 3000; j++ {
		enc := make([]byte, 1+j%200)
		for k := range enc {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			enc[k] = byte(x)
		}
		states = append(states, enc)
	}
	return states
}

// packedSize is the bytes of records p holds, once packed.
func packedSize(p *packedStates) int {
	p.flush(1)
	n := 0
	for _, b := range p.blocks[p.freed:] {
		n += len(b)
	}
	return n
}

// readWindows reads l back by windows of 1,500 states, in order, releasing
// each once read as the search does, and fails unless each state is
// states' at its place.
func readWindows(t *testing.T, l *level, states [][]byte) {
	t.Helper()
	for lo := 0; lo < len(states); lo += 1500 {
		hi := min(lo+1500, len(states))
		if err := l.window(lo, hi); err != nil {
			t.Fatal(err)
		}
		for j := lo; j < hi; j++ {
			if !bytes.Equal(l.state(j), states[j]) {
				t.Fatalf("state %d: got %x, want %x", j, l.state(j), states[j])
			}
		}
		l.release(hi)
	}
}

// A round's states packed by several workers are the records one packs,
// keys included; and the chunks of a window are rebuilt side by side, each
// by the goroutine that reads it, from their keys.
func TestPackedLevelPacksAndUnpacksSideBySide(t *testing.T) {
	states := ringStates()
	var pool blockPool
	defer pool.close()
	levels := map[int]*level{}
	for _, workers := range []int{1, 2, 3} {
		l := packedLevel(&pool)
		defer l.close()
		for lo := 0; lo < len(states); lo += 9000 { // rounds of 9,000 states
			for _, enc := range states[lo:min(lo+9000, len(states))] {
				if err := l.add(enc); err != nil {
					t.Fatal(err)
				}
			}
			l.flush(workers)
		}
		levels[workers] = l
	}
	for _, workers := range []int{2, 3} {
		a, b := levels[1].packed, levels[workers].packed
		if !slices.EqualFunc(a.blocks, b.blocks, bytes.Equal) || !slices.Equal(a.keys, b.keys) {
			t.Fatalf("%d workers packed other records than one", workers)
		}
	}
	l := levels[2]
	if err := l.finish(); err != nil {
		t.Fatal(err)
	}
	const round = 8 * chunkSize
	for lo := 0; lo < len(states); lo += round {
		hi := min(lo+round, len(states))
		if err := l.window(lo, hi); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		bad := make([]int, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := lo/chunkSize + w; c*chunkSize < hi; c += 2 {
					for j := c * chunkSize; j < min((c+1)*chunkSize, hi); j++ {
						if !bytes.Equal(l.state(j), states[j]) {
							bad[w]++
						}
					}
				}
			}()
		}
		wg.Wait()
		if bad[0]+bad[1] != 0 {
			t.Fatalf("window %d..%d: %d states rebuilt wrong", lo, hi, bad[0]+bad[1])
		}
		l.release(hi)
	}
}
