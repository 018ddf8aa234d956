package specs

import "github.com/ringcheck/mc/specs/specdef"

// Sweep is one sweep results/ holds: a spec and one of its profiles.
type Sweep struct {
	Entry   Entry
	Profile specdef.Profile
}

// Sweeps are every spec's sweeps, in the order results/README.md lists
// them: the registry's order, then each spec's.
func Sweeps() []Sweep {
	var out []Sweep
	for _, e := range all {
		for _, p := range e.Sweeps {
			out = append(out, Sweep{e, p})
		}
	}
	return out
}

// SweepOf finds the sweep of profile name ("changroberts-all-initiate").
func SweepOf(name string) (Sweep, bool) {
	for _, s := range Sweeps() {
		if s.Profile.Name == name {
			return s, true
		}
	}
	return Sweep{}, false
}
