package dkr

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
)

// messageBound is 002 §5.4's "2n log n + n", with log = ⌈log₂ n⌉.
func (sp *spec) messageBound() int {
	n := sp.p.N
	return 2*n*log2Ceil(n) + n
}

// properties are the election properties, with the maximum id as the
// winner, and with claims on the seed's claims over the ghosts.
func (sp *spec) properties() []model.Property[State] {
	w := invariants.MaxWinner(sp.p.IDs, Ref+" (the maximum value that P_i has found remains in the election)")
	props := invariants.OutcomeProperties(Ref, w,
		func(s *State) *invariants.Outcome { return &s.Out },
		func(s *State) bool { return s.In.Quiet() })
	if !sp.p.Claims {
		return props
	}
	bound := sp.messageBound()
	props = append(props, invariants.AnnouncementProps(Ref+" (b) (informed in a single turn)", sp.p.N,
		func(s *State) int { return s.Ghost.Announced })...)
	return append(props,
		model.InvariantProp("active-halves", Ref+" (the number of active processes will have been divided by at least 2)",
			"at every state, for every stage k ≥ 1, at most half as many processes have been active in stage k+1 as in stage k",
			func(s *State) bool {
				e := s.Ghost.Entered
				for k := 1; k+1 < len(e); k++ {
					if 2*e[k+1] > e[k] {
						return false
					}
				}
				return true
			}).Reading(appendGhost),
		model.InvariantProp("election-messages-bound", Ref+" (the total is 2n log n + n)",
			fmt.Sprintf("at most 2n⌈log₂ n⌉ + n = %d messages (1, ·) and (2, ·) are sent in any run, relays included", bound),
			func(s *State) bool { return s.Ghost.Sent <= bound }).Reading(appendGhost),
	)
}
