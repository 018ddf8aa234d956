//go:build !uniring_generic

package uniring

// sectionIndex finds where a channel's messages start in a large ring's
// state without summing the counts of every channel before it. The layout
// (doc.go) puts the channels' messages back to back, so channel i's section
// starts after the messages of channels 0..i−1: summing their counts is
// O(n) per send and receive, which is what a long run at n = 1,024 spends
// most of its time on (mc simulate, docs/simulate.md). The index is a
// Fenwick tree over the counts: a prefix sum and a count's change are each
// O(log n).
//
// It belongs to one state and is not part of the state's bytes: Copy and
// Decode leave it invalid (a copy does not pay for it), and the first
// section looked up afterwards rebuilds it, in O(n). So it pays off when
// many actions are applied to one state in place, as mc simulate does, and
// costs nothing to the explorer, which copies every successor: below
// indexFrom processes it is never built, and the counts are summed.
type sectionIndex struct {
	tree  []int32 // 1-based: tree[k] sums the counts of channels (k − k&−k, k]
	valid bool
}

// indexFrom is the ring size from which a state indexes its sections: below
// it the counts before a channel are a few machine words to sum.
const indexFrom = 64

// messagesBefore is the number of messages in the channels before
// channel i.
func (s *State) messagesBefore(i int) int {
	if s.n < indexFrom {
		// The messages after channel i's start are the bytes past the
		// counts' sections: sum whichever side of i is shorter.
		if 2*i <= s.n {
			return sumCounts(s.b[2*s.n : 2*s.n+2*i])
		}
		return (len(s.b)-header(s.n))/2 - sumCounts(s.b[2*s.n+2*i:4*s.n])
	}
	if !s.index.valid {
		s.buildIndex()
	}
	total := int32(0)
	for k := i; k > 0; k -= k & -k {
		total += s.index.tree[k]
	}
	return int(total)
}

// counted records that channel i's count changed by d (±1).
func (s *State) counted(i, d int) {
	if !s.index.valid {
		return
	}
	for k := i + 1; k <= s.n; k += k & -k {
		s.index.tree[k] += int32(d)
	}
}

// buildIndex builds the tree from the counts in O(n).
func (s *State) buildIndex() {
	t := append(s.index.tree[:0], make([]int32, s.n+1)...)
	for i := 0; i < s.n; i++ {
		k := i + 1
		t[k] += int32(s.Pending(i))
		if up := k + k&-k; up <= s.n {
			t[up] += t[k]
		}
	}
	s.index = sectionIndex{tree: t, valid: true}
}
