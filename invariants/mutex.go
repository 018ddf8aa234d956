package invariants

// Mutex is the view of a state that mutual-exclusion properties need.
type Mutex interface {
	Procs() int
	InCS(p int) bool
}

// MutualExclusion holds when at most one process is in its critical section.
func MutualExclusion(v Mutex) bool {
	in := 0
	for p := 0; p < v.Procs(); p++ {
		if v.InCS(p) {
			in++
		}
	}
	return in <= 1
}
