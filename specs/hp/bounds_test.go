package hp

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// ELECT's round bound is the proof of 003 Theorem 1's F⁻¹(n) + O(1) with
// the O(1) at most 0 (bounds.go): never past F⁻¹(n), pinned for a few n,
// and BASIC's n − 1 in the variants without promotion by distance.
func TestRoundBoundIsFibonacciInverse(t *testing.T) {
	bound := func(v string, n int) int {
		sp, err := newSpec(model.Params{N: n, IDs: ring.DescendingIDs(n), Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		return sp.maxRound
	}
	for n := 2; n <= 1000; n++ {
		if b := bound("elect", n); b > fibInverse(n) || b != bound("elect-literal", n) {
			t.Fatalf("n=%d: elect's bound %d, elect-literal's %d, F⁻¹(n) = %d", n, b, bound("elect-literal", n), fibInverse(n))
		}
	}
	for n, want := range map[int]int{2: 2, 3: 3, 4: 5, 5: 5, 9: 5, 10: 7, 25: 7, 26: 9, 1000: 15} {
		if b := bound("elect", n); b != want {
			t.Errorf("n=%d: bound %d, want %d", n, b, want)
		}
	}
	if b := bound("basic", 7); b != 6 {
		t.Errorf("basic n=7: bound %d, want 6", b)
	}
}
