package dkr

import (
	"fmt"
	"math/big"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// messageBound is the largest whole number within 002 §5.4's
// "2n log n + n", log read as log₂ as the seed writes it (28.2 at n = 5,
// not the 35 of ⌈log₂ n⌉): n + ⌊2n·log₂ n⌋, where ⌊2n·log₂ n⌋ is the
// largest k with 2^k ≤ n^(2n), one less than n^(2n)'s bit length.
func (sp *spec) messageBound() int {
	n := sp.p.N
	power := new(big.Int).Exp(big.NewInt(int64(n)), big.NewInt(int64(2*n)), nil)
	return n + power.BitLen() - 1
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
			}).Reading(appendGhost).
			When("no process was active in stage 2", func(s *State) bool { e := s.Ghost.Entered; return len(e) > 2 && e[2] > 0 }),
		model.InvariantProp("election-messages-bound", Ref+" (the total is 2n log n + n)",
			fmt.Sprintf("at most 2n log₂ n + n messages (1, ·) and (2, ·) are sent in any run, relays included: %d, the whole part", bound),
			func(s *State) bool { return s.Ghost.Sent <= bound }).Reading(appendGhost).
			When("no message was sent", func(s *State) bool { return s.Ghost.Sent > 0 }),
	)
}
