package invariants

import "github.com/ringcheck/mc/model"

// The liveness claims every election spec makes: some leader is eventually
// elected, and the election ends. Termination is then two checks:
// election-terminates (no fair run is infinite) and the spec's own
// election-complete (every terminal state is a finished election).

// EventuallyLeader is "every fair run elects a leader". It reads every
// process's decision, which partial-order reduction keeps visible when it
// decides liveness (package por's doc, "Liveness").
func EventuallyLeader[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.EventuallyProp("eventually-leader", ref, "every fair run elects a leader",
		func(s *S) bool { return someLeader(of(s)) }).
		Reading(func(buf []byte, s *S) []byte {
			var tmp [32]Decision
			return append(buf, asBytes(decisions(of(s), tmp[:]))...)
		})
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
