package franklin

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"
	"math"
	"math/bits"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// maxStages is 1 + ⌊log₂ n⌋: with n active in stage 1 and at least halving,
// one process is left after at most that many stages (002 §5.4, "at most
// (log₂ n + 1) stages").
func maxStages(n int) int { return bits.Len(uint(n)) }

// messageBound is ⌊2n(1 + log₂ n)⌋ (002 §5.5.1).
func messageBound(n int) int { return int(math.Floor(2 * float64(n) * (1 + math.Log2(float64(n))))) }

// claimCaps saturate the ghost one above what the claims allow.
func claimCaps(n int) biring.Caps {
	return biring.Caps{Reach: uint8(maxStages(n) + 1), Sent: messageBound(n) + 1, Announced: n + 1}
}

// claims are the properties that read the ghost, on with --claims.
func claims(p *model.Params) []model.Property[State] {
	if !p.Claims {
		return nil
	}
	stages, bound := maxStages(p.N), messageBound(p.N)
	props := invariants.AnnouncementProps(Ref+" with 002 §5.4 (b) (all processes are informed in a single turn)", p.N,
		func(s *State) int { return s.Ghost.Announced })
	return append(props,
		model.InvariantProp("active-halves", Ref+` ("divided by at least 2 at each stage")`,
			fmt.Sprintf("for every stage k, at most half as many processes enter stage k+1 as entered stage k (so at most 1+⌊log₂ n⌋ = %d stages)", stages),
			func(s *State) bool {
				var buf [16]int
				e := s.Ghost.Entrants(buf[:0])
				for k := 1; k <= stages; k++ {
					if 2*biring.AtLeast(e, k+1) > biring.AtLeast(e, k) {
						return false
					}
				}
				return true
			}).Reading(biring.ReadReached[Proc, Msg]).
			When("no process entered stage 2", func(s *State) bool { return s.Ghost.Most() >= 2 }),
		model.InvariantProp("election-messages-bound", Ref+" (2n(1 + log n) messages)",
			fmt.Sprintf("at most ⌊2n(1 + log₂ n)⌋ = %d ⟨id⟩ messages are sent in any run (the announcement's n not counted)", bound),
			func(s *State) bool { return s.Ghost.Sent <= bound }).Reading(biring.ReadSent[Proc, Msg]).
			When("no ⟨id⟩ message was sent", func(s *State) bool { return s.Ghost.Sent > 0 }),
	)
}
