package model

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
