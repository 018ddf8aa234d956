package hs

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// onPathsClaim is 002 §5.3's count of the messages of one candidature
// ("Number of messages"): "the length of the path travelled by any
// candidature message is of the form 2^i", and a candidature on a path of
// length 2^i "will give rise to 2 messages (a candidature and a response)
// in each direction between each pair of processes on the path, at most".
// So, of the messages in transit, a candidature of phase i (lgmax = 2^i)
// that has travelled lg hops is lg + 1 ≤ 2^i hops from its origin, on its
// way out; and a response to a candidate is on its way back, at most 2^i
// hops from it, i the phase of the candidate's latest candidature (a
// candidate waits for both responses before the next, so every response
// to it in transit answers that one; the ghost records the phase, and it
// is not reset when the candidate loses, as lgmax is). A candidature that
// goes one hop too far, or a response sent on instead of back, costs
// messages beyond the seed's count without changing who wins, which the
// other claims do not see (docs/mutants.md).
func onPathsClaim(p *model.Params) model.Property[RaynalState] {
	n := p.N
	origin := make(map[int]int, n)
	for i, id := range p.IDs {
		origin[id] = i
	}
	net := biring.NewNet[RaynalProc, Msg](p, claimCaps(n), announces).Net
	return model.InvariantProp("messages-on-their-paths", "002 §5.3 (Number of messages)",
		"every candidature in transit of phase i is lg + 1 ≤ 2^i hops out from its origin, and every response on its way back to its candidate, at most 2^i hops from it, i the candidate's latest phase",
		func(s *RaynalState) bool {
			for i := range n {
				for _, port := range []ring.Port{ring.Left, ring.Right} {
					// A message at i's Left port travels clockwise (+1),
					// one at its Right port counter-clockwise (−1).
					dir := 1
					if port == ring.Right {
						dir = -1
					}
					for _, m := range s.Chans.Inbox(net, i, port).Messages() {
						o, ok := origin[m.ID]
						if !ok {
							continue
						}
						// out: hops from o to i going the message's way.
						out := ((i-o)*dir%n + n) % n
						switch m.Kind {
						case Candidature:
							if m.Hops+1 > 1<<m.Phase || (out != (m.Hops+1)%n) {
								return false
							}
						case Response:
							// back: hops from the sender, i − dir, on to o.
							back := ((o-(i-dir))*dir%n + n) % n
							if s.Ghost.Reached[o] == 0 || back < 1 || back > 1<<(s.Ghost.Reached[o]-1) {
								return false
							}
						}
					}
				}
			}
			return true
		}).Reading(func(buf []byte, s *RaynalState) []byte {
		return s.Chans.AppendTo(biring.ReadGhost(buf, s))
	}).When("no candidature or response was in transit", electionInTransit)
}

// electionInTransit: a candidature or a response is in transit, on a path
// the claim bounds.
func electionInTransit(s *RaynalState) bool {
	for i := range s.Chans {
		for _, m := range s.Chans[i].Messages() {
			if m.Kind == Candidature || m.Kind == Response {
				return true
			}
		}
	}
	return false
}
