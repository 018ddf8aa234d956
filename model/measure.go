package model

// Measure is a number read off a state, typically a ghost counter ("messages
// sent so far"), whose maximum over every reachable state the checker
// reports together with a shortest run that reaches it. A counter that only
// grows along a run has, as its maximum over states, the maximum over runs:
// the worst case a paper bounds.
type Measure[S any] struct {
	// Name is kebab-case, like a property's.
	Name string
	// Ref cites the claim the measure is compared with ("001 §2 (2)").
	Ref string
	// Doc says in one line what is measured.
	Doc   string
	Value func(s *S) int
	// Reads, if not nil, appends the values of the state variables the
	// measure reads, as Property.Reads does; partial-order reduction keeps
	// the measure's maximum only if it knows them. Nil means it may read
	// anything, and turns reduction off.
	Reads func(buf []byte, s *S) []byte
}
