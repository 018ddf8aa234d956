package invariants

import "mc/model"

// The liveness claims every election spec makes: some leader is eventually
// elected, and the election ends. Termination is then two checks:
// election-terminates (no fair run is infinite) and the spec's own
// election-complete (every terminal state is a finished election).

// EventuallyLeader is "every fair run elects a leader".
func EventuallyLeader[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.EventuallyProp("eventually-leader", ref, "every fair run elects a leader",
		func(s *S) bool { return someLeader(of(s)) })
}

// ElectionTerminates is "every fair run ends".
func ElectionTerminates[S any](ref string) model.Property[S] {
	return model.TerminationProp[S]("election-terminates", ref, "every fair run ends (reaches a state where no action is enabled)")
}

// ElectionLiveness is EventuallyLeader and ElectionTerminates, for a spec
// whose states view as an election through of; ref is the spec's seed
// section.
func ElectionLiveness[S any](ref string, of func(s *S) Election) []model.Property[S] {
	return []model.Property[S]{EventuallyLeader(ref, of), ElectionTerminates[S](ref)}
}
