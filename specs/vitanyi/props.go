package vitanyi

import (
	"fmt"

	"mc/invariants"
	"mc/model"
	"mc/specs/internal/election"
)

// properties are the claims of §2 checked for every timing; with claims on,
// the message-count claims join them.
func (sp *spec) properties() []model.Property[State] {
	l, lowest := sp.leader, sp.ids[sp.leader]
	props := []model.Property[State]{
		model.InvariantProp("at-most-one-leader", Ref+" (correctness)", "no two processors are the Elected One",
			func(s *State) bool { return invariants.AtMostOneLeader(s) }).Reading(appendDecisions),
		model.InvariantProp("leader-is-min", Ref+" (the lowest numbered message)",
			fmt.Sprintf("only the lowest-id processor p%d (id %d) is ever elected", l, lowest),
			func(s *State) bool { return invariants.LeaderIs(s, l) }).Reading(appendDecisions),
		model.StepProp("decision-stable", Ref, "a processor that is elected or has lost never changes its mind",
			func(b *State, _ model.Action, a *State) bool { return invariants.DecisionStable(b, a) }).Reading(appendDecisions),
		model.InvariantProp("hammer-and-anvil", Ref+" (\"leaving it the only one in the ring\")",
			fmt.Sprintf("from the moment the Elected One announces, every k is %d, no processor holds a message and only the sleepwell is in transit", lowest),
			func(s *State) bool { return sp.onlySleepwellLeft(s) }).Reading(sp.appendHammer),
		model.EndProp("election-complete", Ref+" (correctness and termination)",
			fmt.Sprintf("every terminal state has every processor asleep again with Elected One = %d, p%d finished, and no message in transit", lowest, l),
			func(s *State) bool { return sp.complete(s) }),
		model.WitnessProp("leader-elected", Ref, "some reachable state has an Elected One",
			func(s *State) bool { return invariants.SomeLeader(s) }).Reading(appendDecisions),
	}
	props = append(props, election.Liveness(Ref+" (termination)", func(s *State) invariants.Election { return s })...)
	if sp.p.Claims {
		props = append(props, sp.countClaims()...)
	}
	return props
}

// onlySleepwellLeft: once some processor has announced, M_l has passed
// every processor, setting every k to l, and has annihilated every other
// election message; the sleepwell is the only message left (§2).
func (sp *spec) onlySleepwellLeft(s *State) bool {
	announced := false
	for p := range s.Phase {
		announced = announced || s.Phase[p] >= Announced
	}
	if !announced {
		return true
	}
	lowest, inTransit := sp.ids[sp.leader], 0
	for p := range s.Phase {
		if s.K[p] != lowest || s.Timer[p] != 0 {
			return false
		}
		for _, m := range s.In[p].Messages() {
			if m.Kind != Sleepwell {
				return false
			}
			inTransit++
		}
	}
	return inTransit <= 1
}

// complete: the election is over, everywhere, with the right outcome.
func (sp *spec) complete(s *State) bool {
	lowest := sp.ids[sp.leader]
	for p := range s.Phase {
		want := Slept
		if p == sp.leader {
			want = Finished
		}
		if s.Phase[p] != want || s.ElectedOne(p) != lowest {
			return false
		}
	}
	return s.Quiet()
}
