package hs

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"
	"math"
	"math/bits"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// lastPhase is ⌈log₂ n⌉, the phase in which the maximum's candidature or
// probe (hop limit 2^i ≥ n) comes back round the ring: no process enters a
// later one (Lemma 13.9 allows ⌊n/(2^i + 1)⌋ = 0 processors there).
func lastPhase(n int) int { return bits.Len(uint(n - 1)) }

// phaseCap is where the model's phase numbers saturate: one past
// lastPhase. From phase lastPhase on, the hop limit 2^i is at least n, and
// every phase behaves alike: the maximum's message goes round the ring and
// every other one meets a larger id within n−1 hops, before its limit. So
// merging the phases above phaseCap into phaseCap is exact, and phaseCap
// itself stays visible to the phases-bounded claim.
func phaseCap(n int) uint8 { return uint8(lastPhase(n) + 1) }

// next is the phase after i, saturated at phaseCap.
func next(n int, i uint8) uint8 { return min(i+1, phaseCap(n)) }

// entrantBound is Lemma 13.9's ⌊n / (2^{i−1} + 1)⌋ for phase i ≥ 1.
func entrantBound(n, i int) int { return n / (1<<(i-1) + 1) }

// messageBound is ⌊8n(1 + log₂ n)⌋ (002 §5.3).
func messageBound(n int) int { return int(math.Floor(8 * float64(n) * (1 + math.Log2(float64(n))))) }

// claimCaps saturate the ghost one above what the claims allow: phases
// 0..phaseCap are counted 1..phaseCap+1.
func claimCaps(n int) biring.Caps {
	return biring.Caps{Reach: phaseCap(n) + 1, Sent: messageBound(n) + 1, Announced: n + 1}
}

// claims are the properties that read the ghost, on with --claims;
// announcement cites the seed's announcement round and msg names its
// message.
func claims[P any](p *model.Params, announcement, msg string) []model.Property[biring.State[P, Msg]] {
	type S = biring.State[P, Msg]
	if !p.Claims {
		return nil
	}
	n, last, bound := p.N, lastPhase(p.N), messageBound(p.N)
	props := invariants.AnnouncementPropsOf(announcement, msg, n, func(s *S) int { return s.Ghost.Announced })
	return append(props,
		model.InvariantProp("phase-entrants-bound", "004 Lemma 13.9; 002 §5.3",
			"for every phase i ≥ 1, at most ⌊n / (2^{i−1} + 1)⌋ processes enter phase i",
			func(s *S) bool {
				var buf [16]int
				e := s.Ghost.Entrants(buf[:0])
				for i := 1; i <= int(phaseCap(n)); i++ {
					if biring.AtLeast(e, i+1) > entrantBound(n, i) {
						return false
					}
				}
				return true
			}).Reading(biring.ReadReached[P, Msg]).
			When("no process entered phase 1", func(s *S) bool { return s.Ghost.Most() >= 2 }),
		model.InvariantProp("phases-bounded", "004 Theorem 13.10 (no phase beyond log n)",
			fmt.Sprintf("no process enters a phase after ⌈log₂ n⌉ = %d: phases do not grow without bound", last),
			func(s *S) bool { return s.Ghost.Most() <= last+1 }).Reading(biring.ReadReached[P, Msg]).
			When(fmt.Sprintf("no process entered phase ⌈log₂ n⌉ = %d, the last one allowed", last), func(s *S) bool { return s.Ghost.Most() == last+1 }),
		model.InvariantProp("election-messages-bound", "002 §5.3 (8n(1 + log n) messages)",
			fmt.Sprintf("at most ⌊8n(1 + log₂ n)⌋ = %d election messages are sent in any run (the announcement's n not counted)", bound),
			func(s *S) bool { return s.Ghost.Sent <= bound }).Reading(biring.ReadSent[P, Msg]).
			When("no election message was sent", func(s *S) bool { return s.Ghost.Sent > 0 }),
	)
}
