package termination

import "testing"

// The bound of a state not yet expanded is the lexicographic minimum of
// the bounds its edges leave, with the edge that gave it; on a tie the
// earlier edge stays. The measure's value at the state must then be below
// that minimum, which covers every edge to it.
func TestBoundsKeepTheLeastEdge(t *testing.T) {
	bd := &bounds{width: 2}
	bd.startLevel(10) // states from 10 on form the next level
	bd.admit(10, appendBound(nil, []int{5, 3}, 1, 100))
	bd.merge(10, appendBound(nil, []int{5, 4}, 2, 200)) // above: kept out
	bd.merge(10, appendBound(nil, []int{4, 9}, 3, 300)) // below
	bd.merge(10, appendBound(nil, []int{4, 9}, 4, 400)) // a tie: the earlier stays
	lowerBound(bd.next[:bd.row()], []int{6, 0}, 5, 500)
	bd.startLevel(11) // state 10 is expanded now
	row := bd.of(10)
	if row == nil || row[0] != 4 || row[1] != 9 || row[2] != 3 || row[3] != 300 {
		t.Fatalf("bound %v, want [4 9 3 300]", row)
	}
	for _, c := range []struct {
		value []int
		fits  bool
	}{{[]int{4, 8}, true}, {[]int{3, 100}, true}, {[]int{4, 9}, false}, {[]int{5, 0}, false}} {
		if got := decreasesFrom(row[:2], c.value); got != c.fits {
			t.Errorf("measure %v below bound %v: %v, want %v", c.value, row[:2], got, c.fits)
		}
	}
	if bd.of(11) != nil {
		t.Fatal("a state with no row has a bound")
	}
	bd.free()
}
