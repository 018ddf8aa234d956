package vlt

// DefaultIDs is mc's default arrangement for vlt: 1, n, 2, n-1, 3, …, small
// and large ids alternating. ⌊n/2⌋ processors are local minima, so phase 1
// has several chases, two of them head-on; on full-duplex links their
// messages can pass each other, which is what 000 §4 is about. (The
// descending arrangement of the other specs has a single local minimum:
// one chase round the ring, nothing to meet.)
func DefaultIDs(n int) []int {
	ids := make([]int, 0, n)
	for lo, hi := 1, n; lo <= hi; lo, hi = lo+1, hi-1 {
		ids = append(ids, lo)
		if hi != lo {
			ids = append(ids, hi)
		}
	}
	return ids
}

// HeadOnChases reports whether two phase-1 chases travel towards each other:
// two local minima with no local minimum between them on one side of the
// ring, each sending its phase-1 message (towards its smaller neighbour)
// into that side. The processors between them relay both messages, so on
// full-duplex links the two can pass each other on any link between them:
// the run Prop. 4.2 speaks of exists.
func HeadOnChases(ids []int) bool {
	n := len(ids)
	at := func(i int) int { return ids[((i%n)+n)%n] }
	var minima []int
	for i := range ids {
		if ids[i] < at(i-1) && ids[i] < at(i+1) {
			minima = append(minima, i)
		}
	}
	if len(minima) < 2 {
		return false
	}
	for k, u := range minima {
		v := minima[(k+1)%len(minima)] // the next local minimum clockwise
		if at(u+1) < at(u-1) && at(v-1) < at(v+1) {
			return true
		}
	}
	return false
}
