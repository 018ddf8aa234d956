// Package election holds the liveness claims every election spec makes:
// some leader is eventually elected, and the election ends. Termination is
// then two checks: election-terminates (no fair run is infinite) and the
// spec's own end property (every terminal state is good).
package election

import (
	"mc/invariants"
	"mc/model"
)

// Liveness returns eventually-leader and election-terminates for a spec
// whose states view as an election through view; ref is the spec's seed
// section.
func Liveness[S any](ref string, view func(s *S) invariants.Election) []model.Property[S] {
	return []model.Property[S]{
		model.EventuallyProp("eventually-leader", ref, "every fair run elects a leader",
			func(s *S) bool { return invariants.SomeLeader(view(s)) }),
		model.TerminationProp[S]("election-terminates", ref, "every fair run ends (reaches a state where no action is enabled)"),
	}
}
