package checker

import (
	"bytes"
	"path/filepath"
	"strings"
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
	for lo := 0; lo < len(states); lo += 1500 {
		hi := min(lo+1500, len(states))
		if err := l.window(lo, hi); err != nil {
			t.Fatal(err)
		}
		for j := lo; j < hi; j++ {
			if !bytes.Equal(l.state(j), states[j]) {
				t.Fatalf("state %d: got %d bytes, want %d", j, len(l.state(j)), len(states[j]))
			}
		}
	}
	if err := l.window(0, 1); err == nil {
		t.Fatal("a window out of order was accepted")
	}
}
