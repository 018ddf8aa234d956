package uniring

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Properties are the election properties both specs check; ref is the seed
// section of the spec. With claims, the message-count claims join them.
func Properties(p *model.Params, ref string) []model.Property[State] {
	winner := invariants.ArgMax(p.IDs)
	view := func(s *State) invariants.Election { return s }
	props := []model.Property[State]{
		invariants.AtMostOneLeader(ref, view).Reading(AppendDecisions),
		invariants.LeaderIs("leader-is-max", ref, fmt.Sprintf("only the maximum-id process p%d is ever leader", winner), winner, view).
			Reading(AppendDecisions),
		invariants.DecisionStable("004 (leader never changes)", view).Reading(AppendDecisions),
		invariants.ElectionComplete(ref, "every terminal state has exactly one leader, all others lost, and no message in transit",
			func(s *State) bool { return invariants.Agreement(s) && s.Quiet() }),
		invariants.LeaderElected(ref, view).Reading(AppendDecisions),
	}
	// The liveness goal reads the decisions too, which lets mc simulate
	// skip it on steps that decide nothing.
	props = append(props, invariants.EventuallyLeader(ref, view).Reading(AppendDecisions), invariants.ElectionTerminates[State](ref))
	if !p.Claims {
		return props
	}
	worst := p.N * (p.N + 1) / 2
	props = append(props, model.InvariantProp("elect-messages-bound", "002 §5.2; 004 (each processor induces at most n messages)",
		fmt.Sprintf("at most n(n+1)/2 = %d ⟨elect⟩ messages are sent in any run", worst),
		func(s *State) bool { return s.ElectSent() <= worst }).Reading(AppendGhost).
		When("no ⟨elect⟩ message was sent", func(s *State) bool { return s.ElectSent() > 0 }))
	if ring.CyclicallyDescending(p.IDs) {
		props = append(props, model.WitnessProp("elect-messages-worst-case", "002 §5.2 (ids in decreasing order, all initiating)",
			fmt.Sprintf("some run sends exactly n(n+1)/2 = %d ⟨elect⟩ messages", worst),
			func(s *State) bool { return s.ElectSent() == worst }).Reading(AppendGhost))
	}
	return props
}
