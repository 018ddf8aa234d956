package ring

import (
	"fmt"
	"testing"
)

func TestArrangementsAreAllDistinctPermutations(t *testing.T) {
	all := Arrangements(4)
	if len(all) != 24 {
		t.Fatalf("got %d arrangements of 4, want 24", len(all))
	}
	seen := map[string]bool{}
	for _, a := range all {
		seen[fmt.Sprint(a)] = true
	}
	if len(seen) != 24 || fmt.Sprint(all[0]) != "[1 2 3 4]" || fmt.Sprint(all[23]) != "[4 3 2 1]" {
		t.Fatalf("arrangements not the 24 distinct permutations in order: first %v last %v", all[0], all[23])
	}
}

func TestRingPortsWithoutCommonOrientation(t *testing.T) {
	r := Ring{N: 4, Bidirectional: true, Flipped: []bool{false, true, false, false}}
	if r.Neighbour(0, Right) != 1 || r.Neighbour(0, Left) != 3 {
		t.Fatal("unflipped process 0: right should lead to 1, left to 3")
	}
	if r.Neighbour(1, Right) != 0 || r.Neighbour(1, Left) != 2 {
		t.Fatal("flipped process 1: right should lead to 0, left to 2")
	}
	if r.PortTo(1, 2) != Left || r.PortTo(2, 1) != Left || Left.Opposite() != Right {
		t.Fatal("PortTo disagrees with Neighbour")
	}
}

func TestArrangementClasses(t *testing.T) {
	for _, c := range []struct {
		n       int
		sym     Symmetry
		classes int
	}{
		{4, Rotation, 6}, {5, Rotation, 24}, {6, Rotation, 120},
		{4, RotationReflection, 3}, {5, RotationReflection, 12}, {6, RotationReflection, 60},
	} {
		cls := ArrangementClasses(c.n, c.sym)
		total := 0
		for _, cl := range cls {
			total += cl.Size
			if fmt.Sprint(canonical(cl.Rep, c.sym)) != fmt.Sprint(cl.Rep) {
				t.Fatalf("representative %v is not canonical", cl.Rep)
			}
		}
		if len(cls) != c.classes || total != len(Arrangements(c.n)) {
			t.Fatalf("n=%d %s: %d classes covering %d, want %d covering %d", c.n, c.sym, len(cls), total, c.classes, len(Arrangements(c.n)))
		}
	}
}

// Chang–Roberts' worst case needs the ids to fall by one step from the
// maximum all the way round, in any rotation.
func TestCyclicallyDescending(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want bool
	}{{[]int{3, 2, 1}, true}, {[]int{2, 1, 3}, true}, {DescendingIDs(5), true}, {[]int{1, 2, 3}, false}, {[]int{3, 1, 4, 2}, false}} {
		if got := CyclicallyDescending(c.ids); got != c.want {
			t.Errorf("CyclicallyDescending(%v) = %v, want %v", c.ids, got, c.want)
		}
	}
}
