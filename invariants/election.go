package invariants

import "github.com/ringcheck/mc/model"

// The election properties, each under the name every election spec gives
// it, over a spec's state S that views as an Election through of; ref
// cites the seed's claim. Each says its claim in the library's words; a
// spec that words it as its seed does sets Doc (model.Property.Saying).
// None sets Reads: the spec knows what its decisions are made of
// (model.Property.Reading; Outcome.AppendDecisions).

// Each declares its situation (model/vacuity.go) from the decisions it
// reads, so that it stays within any Reading of them.

// AtMostOneLeader is the invariant "no two processes are leaders at once".
// It says something only once some process leads: on a run that elects
// no one it passes vacuously.
func AtMostOneLeader[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.InvariantProp("at-most-one-leader", ref, "no two processes are leaders at once",
		func(s *S) bool { return atMostOneLeader(of(s)) }).
		When(noLeader, func(s *S) bool { return someLeader(of(s)) })
}

// LeaderIs is the invariant "only process want is ever leader", under the
// name that says which process the algorithm promises: "leader-is-max",
// "leader-is-min" or "leader-is-winner". Its situation is, like
// AtMostOneLeader's, a state with a leader.
func LeaderIs[S any](name, ref, doc string, want int, of func(s *S) Election) model.Property[S] {
	return model.InvariantProp(name, ref, doc, func(s *S) bool { return onlyLeader(of(s), want) }).
		When(noLeader, func(s *S) bool { return someLeader(of(s)) })
}

// noLeader is what never happened when no reached state had a leader.
const noLeader = "no state had a leader"

// DecisionStable is the step property "a decided process never changes its
// decision". Its situation is a step that changes the decisions while some
// process had decided: only such a step can change a decided process's.
func DecisionStable[S any](ref string, of func(s *S) Election) model.Property[S] {
	return model.StepProp("decision-stable", ref, "a decided process never changes its decision",
		func(b *S, _ model.Action, a *S) bool { return decisionStable(of(b), of(a)) }).
		WhenStep("no decision changed after a first one was made",
			func(b *S, _ model.Action, a *S) bool { return decidedThenChanged(of(b), of(a)) })
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
