package model

// Termination is a termination measure: a tuple of natural numbers read off
// a state that every transition strictly decreases in lexicographic order,
// the kind of argument a seed's termination proof makes ("every message is
// forwarded at most n times"). Such a measure proves that the state graph
// has no cycle and that every run is finite; the checker verifies it on
// every transition of the breadth-first search and then decides the
// eventually and leads-to properties without storing the graph (package
// checker/termination). A measure that some transition does not decrease is
// reported as wrong, and liveness is decided on the graph as without one.
type Termination[S any] struct {
	// Ref cites the seed's termination argument the measure follows.
	Ref string
	// Doc says in one line what the components count.
	Doc string
	// Value appends the measure's components to buf, most significant
	// first: always the same number of them, each at least 0.
	Value func(buf []int, s *S) []int
}

// Decreases reports whether after is lexicographically smaller than before,
// two values of one measure.
func Decreases(before, after []int) bool {
	for i := range before {
		if after[i] != before[i] {
			return after[i] < before[i]
		}
	}
	return false
}
