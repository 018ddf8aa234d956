package ring

import (
	"fmt"
	"slices"
)

// Arrangements returns every arrangement of the ids 1..n around a ring of n,
// in lexicographic order: n! slices, process 0's id first.
func Arrangements(n int) [][]int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	var out [][]int
	for {
		out = append(out, append([]int(nil), ids...))
		// Next permutation in lexicographic order.
		i := n - 2
		for i >= 0 && ids[i] >= ids[i+1] {
			i--
		}
		if i < 0 {
			return out
		}
		j := n - 1
		for ids[j] <= ids[i] {
			j--
		}
		ids[i], ids[j] = ids[j], ids[i]
		for a, b := i+1, n-1; a < b; a, b = a+1, b-1 {
			ids[a], ids[b] = ids[b], ids[a]
		}
	}
}

// Symmetry is a group of ring symmetries under which a spec's behaviour is
// the same up to relabelling processes.
type Symmetry int

const (
	// Rotation: every process runs the same code and the ring has a common
	// orientation, so rotating an arrangement rotates every run.
	Rotation Symmetry = iota
	// RotationReflection: a bidirectional ring without a common sense of
	// orientation also looks the same read the other way round.
	RotationReflection
)

func (s Symmetry) String() string {
	if s == RotationReflection {
		return "rotation and reflection"
	}
	return "rotation"
}

// ArrangementClass is a set of arrangements that a symmetry maps onto one
// another; Rep is the lexicographically smallest, the one that is checked.
type ArrangementClass struct {
	Rep  []int
	Size int
}

// ArrangementClasses partitions the arrangements of 1..n into classes under
// sym, in the order of their representatives. Since the specs compare ids
// only, ids are relabelled by rank: 1..n stands for every set of n ids.
func ArrangementClasses(n int, sym Symmetry) []ArrangementClass {
	var out []ArrangementClass
	index := map[string]int{}
	for _, a := range Arrangements(n) {
		rep := canonical(a, sym)
		k := fmt.Sprint(rep)
		if i, ok := index[k]; ok {
			out[i].Size++
			continue
		}
		index[k] = len(out)
		out = append(out, ArrangementClass{Rep: rep, Size: 1})
	}
	return out
}

// canonical is the smallest image of a under sym.
func canonical(a []int, sym Symmetry) []int {
	best := a
	none := make([]bool, len(a))
	for _, g := range RingSymmetries(len(a)) {
		if g.Reflect && sym != RotationReflection {
			continue
		}
		if img, _ := g.Apply(a, none); slices.Compare(img, best) < 0 {
			best = img
		}
	}
	return best
}

// DescendingIDs returns n, n-1, …, 1: the arrangement in which Chang–Roberts
// sends the most messages, and mc's default.
func DescendingIDs(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = n - i
	}
	return ids
}

// CyclicallyDescending reports whether the ids decrease along the ring from
// the maximum: each process's successor has the next smaller id. This is
// the arrangement in which the worst case n(n+1)/2 is claimed.
func CyclicallyDescending(ids []int) bool {
	top, drops := slices.Index(ids, slices.Max(ids)), 0
	for i := range ids {
		if ids[(top+i+1)%len(ids)] > ids[(top+i)%len(ids)] {
			drops++
		}
	}
	return drops == 1
}
