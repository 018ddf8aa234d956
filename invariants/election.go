package invariants

import "github.com/ringcheck/mc/model"

// The election properties, each under the name every election spec gives
// it, over a spec's state S that views as an Election through of; ref
// cites the seed's claim. Each says its claim in the library's words; a
// spec that words it as its seed does sets Doc (model.Property.Saying).
// None sets Reads: the spec knows what its decisions are made of
// (model.Property.Reading; Outcome.AppendDecisions).

// AtMostOneLeader is the invariant "no two processes are leaders at once".
func AtMostOneLeader[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.InvariantProp("at-most-one-leader", ref, "no two processes are leaders at once",
		func(s *S) bool { return atMostOneLeader(of(s)) })
}

// LeaderIs is the invariant "only process want is ever leader", under the
// name that says which process the algorithm promises: "leader-is-max",
// "leader-is-min" or "leader-is-winner".
func LeaderIs[S any](name, ref, doc string, want int, of func(s *S) Election) model.Property[S] {
	return model.InvariantProp(name, ref, doc, func(s *S) bool { return onlyLeader(of(s), want) })
}

// DecisionStable is the step property "a decided process never changes its
// decision".
func DecisionStable[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.StepProp("decision-stable", ref, "a decided process never changes its decision",
		func(b *S, _ model.Action, a *S) bool { return decisionStable(of(b), of(a)) })
}

// ElectionComplete is the end property "every terminal state is a finished
// election": exactly one leader, every other process lost (Agreement), and
// whatever else done asks of the spec's state (no message in transit, every
// process knowing the leader).
func ElectionComplete[S any](ref, doc string, done func(s *S) bool) model.Property[S] {
	return model.EndProp("election-complete", ref, doc, done)
}

// LeaderElected is the witness "some reachable state has a leader", which
// guards the other properties against passing vacuously.
func LeaderElected[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.WitnessProp("leader-elected", ref, "some reachable state has a leader",
		func(s *S) bool { return someLeader(of(s)) })
}
