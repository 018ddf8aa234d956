package uniring

import (
	"fmt"

	"mc/invariants"
	"mc/model"
	"mc/specs/internal/election"
)

// Properties are the election properties both specs check; ref is the seed
// section of the spec. With claims, the message-count claims join them.
func Properties(p *model.Params, ref string) []model.Property[State] {
	winner := ArgMax(p.IDs)
	props := []model.Property[State]{
		model.InvariantProp("at-most-one-leader", ref, "no two processes are leaders at once",
			func(s *State) bool { return invariants.AtMostOneLeader(s) }).Reading(AppendDecisions),
		model.InvariantProp("leader-is-max", ref, fmt.Sprintf("only the maximum-id process p%d is ever leader", winner),
			func(s *State) bool { return invariants.LeaderIs(s, winner) }).Reading(AppendDecisions),
		model.StepProp("decision-stable", "004 (leader never changes)", "a decided process never changes its decision",
			func(b *State, _ model.Action, a *State) bool { return invariants.DecisionStable(b, a) }).Reading(AppendDecisions),
		model.EndProp("election-complete", ref, "every terminal state has exactly one leader, all others lost, and no message in transit",
			func(s *State) bool { return invariants.Agreement(s) && s.Quiet() }),
		model.WitnessProp("leader-elected", ref, "some reachable state has a leader",
			func(s *State) bool { return invariants.SomeLeader(s) }).Reading(AppendDecisions),
	}
	props = append(props, election.Liveness(ref, func(s *State) invariants.Election { return s })...)
	if !p.Claims {
		return props
	}
	worst := p.N * (p.N + 1) / 2
	props = append(props, model.InvariantProp("elect-messages-bound", "002 §5.2; 004 (each processor induces at most n messages)",
		fmt.Sprintf("at most n(n+1)/2 = %d ⟨elect⟩ messages are sent in any run", worst),
		func(s *State) bool { return s.ElectSent() <= worst }).Reading(AppendGhost))
	if CyclicallyDescending(p.IDs) {
		props = append(props, model.WitnessProp("elect-messages-worst-case", "002 §5.2 (ids in decreasing order, all initiating)",
			fmt.Sprintf("some run sends exactly n(n+1)/2 = %d ⟨elect⟩ messages", worst),
			func(s *State) bool { return s.ElectSent() == worst }).Reading(AppendGhost))
	}
	return props
}

// CyclicallyDescending reports whether the ids decrease along the ring from
// the maximum: each process's successor has the next smaller id. This is
// the arrangement in which the worst case n(n+1)/2 is claimed.
func CyclicallyDescending(ids []int) bool {
	top, drops := ArgMax(ids), 0
	for i := range ids {
		if ids[(top+i+1)%len(ids)] > ids[(top+i)%len(ids)] {
			drops++
		}
	}
	return drops == 1
}

// ArgMax is the process with the largest id.
func ArgMax(ids []int) int {
	best := 0
	for i, id := range ids {
		if id > ids[best] {
			best = i
		}
	}
	return best
}
