package ring

import (
	"fmt"
	"github.com/ringcheck/mc/model"
	"slices"
	"strings"
	"testing"
)

func TestOrientationsAreEveryAssignment(t *testing.T) {
	all := Orientations(3)
	var got []string
	for _, f := range all {
		got = append(got, model.FormatOrientation(f))
	}
	if want := []string{"000", "001", "010", "011", "100", "101", "110", "111"}; !slices.Equal(got, want) {
		t.Fatalf("Orientations(3) = %v", got)
	}
	if f, err := model.ParseOrientation("0110", 4); err != nil || model.FormatOrientation(f) != "0110" {
		t.Fatalf("model.ParseOrientation(0110) = %v, %v", f, err)
	}
	for _, bad := range []string{"011", "01101", "01x0", ""} {
		if _, err := model.ParseOrientation(bad, 4); err == nil {
			t.Errorf("model.ParseOrientation(%q, 4) accepted", bad)
		}
	}
}

// With the ids fixed, no symmetry of a ring of n ≥ 3 is left, so every
// assignment is checked; on a ring of two the reflection flips both.
func TestOrientationsUpToSymmetry(t *testing.T) {
	for n, want := range map[int]int{2: 2, 3: 8, 4: 16, 5: 32} {
		if got := len(OrientationsUpToSymmetry(DescendingIDs(n))); got != want {
			t.Errorf("n=%d: %d assignments, want %d", n, got, want)
		}
	}
	p := model.Params{N: 3, IDs: []int{1, 2, 3}, Orientation: []bool{true, false, false}}
	if len(InitialOrientations(&p)) != 1 {
		t.Fatal("a fixed orientation should be the only one")
	}
}

// neighbours lists, for each process and port, the id at the far end: the
// ring as its processes see it.
func neighbours(ids []int, f []bool) string {
	r := Ring{N: len(ids), Bidirectional: true, Flipped: f}
	out := ""
	for i := range ids {
		for _, p := range []Port{Left, Right} {
			j, q := r.Peer(i, p)
			out += fmt.Sprintf("%d.%s→%d.%s ", ids[i], p, ids[j], q)
		}
	}
	return out
}

// Every relabelling describes the same ring: the processes, found by id,
// see the same neighbours over the same ports.
func TestSymmetriesDescribeTheSameRing(t *testing.T) {
	ids, f := []int{3, 1, 5, 2, 4}, []bool{false, true, true, false, false}
	want := sortedWords(neighbours(ids, f))
	syms := RingSymmetries(5)
	if len(syms) != 10 || syms[0] != (RingSymmetry{}) {
		t.Fatalf("RingSymmetries(5) = %v", syms)
	}
	for _, g := range syms {
		gi, gf := g.Apply(ids, f)
		if got := sortedWords(neighbours(gi, gf)); got != want {
			t.Fatalf("%+v gives ids %v orientation %s, a different ring:\n%s\nwant\n%s", g, gi, model.FormatOrientation(gf), got, want)
		}
	}
}

func sortedWords(s string) string {
	ws := strings.Fields(s)
	slices.Sort(ws)
	return strings.Join(ws, " ")
}

func TestArrangementsUpToSymmetry(t *testing.T) {
	for n, want := range map[int]int{3: 1, 4: 3, 5: 12, 6: 60} {
		reps := ArrangementsUpToSymmetry(n)
		if len(reps) != want {
			t.Fatalf("n=%d: %d arrangements, want %d", n, len(reps), want)
		}
		// Every arrangement is an image of exactly one representative.
		hit := map[string]int{}
		none := make([]bool, n)
		for _, r := range reps {
			seen := map[string]bool{}
			for _, g := range RingSymmetries(n) {
				gi, _ := g.Apply(r, none)
				seen[fmt.Sprint(gi)] = true
			}
			for k := range seen {
				hit[k]++
			}
		}
		for _, a := range Arrangements(n) {
			if hit[fmt.Sprint(a)] != 1 {
				t.Fatalf("n=%d: arrangement %v is the image of %d representatives", n, a, hit[fmt.Sprint(a)])
			}
		}
	}
}

// Params, which cannot import this package, counts the initial
// orientations of a run on its own; it must agree with the enumeration.
func TestParamsCountsTheInitialOrientations(t *testing.T) {
	for n := 2; n <= 7; n++ {
		p := model.Params{N: n, IDs: DescendingIDs(n), Duplex: model.FullDuplex}
		want := fmt.Sprintf("(%d, one initial state each)", len(InitialOrientations(&p)))
		if got := p.String(); !strings.Contains(got, want) {
			t.Errorf("n=%d: Params says %q, want %q", n, got, want)
		}
	}
}
