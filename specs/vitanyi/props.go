package vitanyi

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// properties are the claims of §2 checked for every timing; with claims on,
// the message-count claims join them.
func (sp *spec) properties() []model.Property[State] {
	l, lowest := sp.leader, sp.ids[sp.leader]
	view := func(s *State) invariants.Election { return s }
	props := []model.Property[State]{
		invariants.AtMostOneLeader(Ref+" (correctness)", view).Saying("no two processors are the Elected One").Reading(appendDecisions),
		invariants.LeaderIs("leader-is-min", Ref+" (the lowest numbered message)",
			fmt.Sprintf("only the lowest-id processor p%d (id %d) is ever elected", l, lowest), l, view).Reading(appendDecisions),
		invariants.DecisionStable(Ref, view).Saying("a processor that is elected or has lost never changes its mind").Reading(appendDecisions),
		model.InvariantProp("hammer-and-anvil", Ref+" (\"leaving it the only one in the ring\")",
			fmt.Sprintf("from the moment the Elected One announces, every k is %d, no processor holds a message and only the sleepwell is in transit", lowest),
			func(s *State) bool { return sp.onlySleepwellLeft(s) }).Reading(sp.appendHammer),
		invariants.ElectionComplete(Ref+" (correctness and termination)",
			fmt.Sprintf("every terminal state has every processor asleep again with Elected One = %d, p%d finished, and no message in transit", lowest, l),
			func(s *State) bool { return sp.complete(s) }),
		invariants.LeaderElected(Ref, view).Saying("some reachable state has an Elected One").Reading(appendDecisions),
	}
	props = append(props, invariants.ElectionLiveness(Ref+" (termination)", view)...)
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
