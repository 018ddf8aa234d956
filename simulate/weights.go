package simulate

// weights is a Fenwick (binary indexed) tree over the action groups' weights
// (how many enabled actions each group has): the scheduler changes one
// group's weight and draws the group of the k-th enabled action, both in
// O(log groups), so that a step costs the same on a ring of 16 processes
// as on one of 4,096, up to that logarithm.
type weights struct {
	tree []int // 1-based: tree[i] sums the weights of (i - i&-i, i]
	of   []int // of[g] is group g's weight
	sum  int
	top  int // the largest power of two ≤ len(of)
}

func newWeights(groups int) *weights {
	w := &weights{tree: make([]int, groups+1), of: make([]int, groups), top: 1}
	for w.top*2 <= groups {
		w.top *= 2
	}
	return w
}

// set makes group g's weight v.
func (w *weights) set(g, v int) {
	d := v - w.of[g]
	if d == 0 {
		return
	}
	w.of[g] = v
	w.sum += d
	for i := g + 1; i < len(w.tree); i += i & -i {
		w.tree[i] += d
	}
}

// find returns the group holding the k-th unit of weight (0 ≤ k < sum) and
// k's offset within that group.
func (w *weights) find(k int) (g, offset int) {
	i := 0
	for step := w.top; step > 0; step /= 2 {
		if j := i + step; j < len(w.tree) && w.tree[j] <= k {
			i = j
			k -= w.tree[j]
		}
	}
	return i, k
}
