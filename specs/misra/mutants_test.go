package misra

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// handler is 002 §4.2's receive handler (recv) with its decisions as
// parameters, each the seed's in seedHandler.
type handler struct {
	// lost says whether a token whose mark is t shows the other lost,
	// at a process whose m_i is m.
	lost func(m, t Mark) bool
	// remember: a token that passes sets m_i.
	remember bool
	// regenerate: a lost token is made again.
	regenerate bool
	// meet: tokens that meet both count one up.
	meet bool
	// unsigned: m_i records a token's number without its sign (which
	// token it was).
	unsigned bool
}

func seedHandler() handler {
	return handler{lost: func(m, t Mark) bool { return m == t }, remember: true, regenerate: true, meet: true}
}

// into puts h in place of the system's recv.
func (h handler) into(sys *model.System[State]) {
	p := sys.Params
	sp := &spec{n: p.N, mod: p.N + 1, bound: p.Bound, net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}, claims: p.Claims}
	spectest.ReplaceDo(sys, "recv", func(s *State, i, k int) bool {
		t := s.In[i].Recv(sp.net.Sem, k)
		mark := sp.mark(t)
		if h.unsigned {
			mark.Passed = 0
		}
		other := t.Kind.Other()
		if sp.claims && count(s, other) == 0 {
			s.Ghost.Passage = min(s.Ghost.Passage+1, sp.n+2)
		}
		if h.lost(s.M[i], mark) {
			t.V = sp.inc(t.V)
			if h.regenerate && count(s, other) < maxCopies {
				s.Hand[i].Send(hand, Token{Kind: other, V: t.V})
			}
			if h.regenerate && sp.claims {
				s.Ghost.Regenerated[other] = min(s.Ghost.Regenerated[other]+1, sp.bound+1)
				s.Ghost.Passage = 0
			}
		} else {
			if h.remember {
				s.M[i] = mark
			}
			if h.meet && holds(s, i, other) {
				t.V = sp.inc(t.V)
				var met []Token
				for j := s.Hand[i].Len() - 1; j >= 0; j-- {
					if s.Hand[i].Messages()[j].Kind == other {
						met = append(met, s.Hand[i].Drop(j))
					}
				}
				for _, m := range met {
					s.Hand[i].Send(hand, Token{Kind: other, V: sp.inc(m.V)})
				}
			}
		}
		s.Hand[i].Send(hand, t)
		return true
	})
}

// Every property of Misra's algorithm fails on some mutant of its rules,
// under weak fairness per action class, the spec's (docs/mutants.md).
func TestMutantsMisra(t *testing.T) {
	var h [5]handler
	for k := range h {
		h[k] = seedHandler()
	}
	h[0].lost = func(m, t Mark) bool { return m != t }
	h[1].remember = false
	h[2].regenerate = false
	h[3].meet = false
	h[4].unsigned = true
	p := params(2, "")
	p.Claims = true
	modN := params(2, "mod-n")
	modN.Claims = true
	mutants := []spectest.Mutant[State]{
		{Name: "comparison flipped: m_i ≠ nb taken for a loss", Rule: "receive (nb): loss if m_i = nb", Params: p, Mutate: h[0].into,
			Kills: []string{"mutual-exclusion", "one-token-each", "numbers-balance", "regenerated-only-when-lost"}},
		{Name: "reset dropped: a passing token does not set m_i", Rule: "receive (nb), no loss: m_i ← nb", Params: p, Mutate: h[1].into,
			Kills: []string{"request-granted-p0", "request-granted-p1", "lost-token-regenerated", "loss-detected-in-one-passage"}},
		{Name: "regeneration dropped", Rule: "receive (nb), loss: regenerate the other token", Params: p, Mutate: h[2].into,
			Kills: []string{"request-granted-p0", "request-granted-p1", "lost-token-regenerated", "loss-detected-in-one-passage"}},
		{Name: "increment dropped: tokens that meet keep their numbers", Rule: "the tokens meet: nbping ← nbping + 1, nbpong ← nbpong − 1", Params: p, Mutate: h[3].into,
			Kills: []string{"mutual-exclusion", "request-granted-p0", "request-granted-p1", "one-token-each", "numbers-balance", "lost-token-regenerated", "regenerated-only-when-lost", "loss-detected-in-one-passage"}},
		{Name: "bound off by one: numbers modulo n, not n+1 (variant mod-n)", Rule: "numbers modulo n+1", Params: modN, Mutate: func(*model.System[State]) {},
			Kills: []string{"mutual-exclusion", "one-token-each", "numbers-balance", "regenerated-only-when-lost", "loss-detected-in-one-passage"}},
		{Name: "send dropped: leaving keeps the ping", Rule: "leave: send the ping on", Params: p, Mutate: func(sys *model.System[State]) {
			spectest.ReplaceDo(sys, "leave", func(s *State, i, _ int) bool {
				s.Phase[i] = invariants.Idle
				return true
			})
		},
			Kills: []string{"request-granted-p0", "request-granted-p1", "lost-token-regenerated"}},
		{Name: "effect dropped: entering leaves the process waiting", Rule: "enter: waiting → in-cs", Params: p, Mutate: func(sys *model.System[State]) {
			spectest.ReplaceDo(sys, "enter", func(*State, int, int) bool { return true })
		},
			Kills: []string{"request-granted-p0", "request-granted-p1", "can-enter-p0", "can-enter-p1", "lost-token-regenerated"}},
		{Name: "sign dropped: m_i records nb without the sign that tells ping from pong", Rule: "m_i ← nbping, or −nbpong for the pong", Params: p, Mutate: h[4].into,
			Kills: []string{"mutual-exclusion", "one-token-each", "numbers-balance", "regenerated-only-when-lost", "loss-detected-in-one-passage"}},
	}
	spectest.Suite[State]{
		Section: "misra (002 §4.2), variant signed, fairness per action, claims on", IDless: true,
		Build: New, Options: checker.Options{MaxStates: 60000, Fair: model.FairAction}, Mutants: mutants,
	}.Run(t)
}
