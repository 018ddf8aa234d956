package suzukikasami

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// handler is 002 §3.4's text with its decisions as parameters, each the
// seed's in seedHandler: the test puts it in place of the rules' effects.
type handler struct {
	// served says whether the token, whose entry for j is t, owes j a
	// visit for its request k.
	served func(k, t int) bool
	// record: the postlude stores the clock in the token.
	record bool
	// ignoreHeld: a process that receives a request while in its critical
	// section may pass the token on all the same.
	ignoreHeld bool
	// keepCopy: a process that sends the token keeps token_present.
	keepCopy bool
	// presentOnArrival: the token's arrival sets token_present.
	presentOnArrival bool
	// broadcast: a request goes to the others.
	broadcast bool
	// enterHeld: a process whose token is present enters at once.
	enterHeld bool
	// askIgnored: asking does nothing but count the request.
	askIgnored bool
	// fromZero: the postlude scans for a requester from process 0, not
	// from i+1.
	fromZero bool
	// overwrite: a request sets reqs[j] to its clock, not the max.
	overwrite bool
}

func seedHandler() handler {
	return handler{served: func(k, t int) bool { return k > t }, record: true, presentOnArrival: true, broadcast: true, enterHeld: true}
}

// into puts h in place of the effects of ask, recv and exit.
func (h handler) into(sys *model.System[State]) {
	p := sys.Params
	sp := &spec{n: p.N, bound: p.Bound, sem: p.ChanSemantics(), claims: p.Claims}
	postlude := func(s *State, i int) bool {
		if h.record {
			s.Token[i][i] = s.Clock[i]
		}
		j := -1
		for d := 1; d < sp.n && j < 0; d++ {
			c := (i + d) % sp.n
			if h.fromZero {
				c = d - 1
				if c >= i {
					c = d
				}
			}
			if h.served(s.Reqs[i][c], s.Token[i][c]) {
				j = c
			}
		}
		if j < 0 {
			return true
		}
		m := Msg{Kind: Access, N: uint8(sp.n)}
		for k, v := range s.Token[i] {
			m.Token[k] = uint8(v)
			if !h.keepCopy {
				s.Token[i][k] = 0
			}
		}
		s.Present[i] = h.keepCopy
		if sp.claims {
			s.Ghost.Cost[j]++
		}
		return s.In[j].Send(sp.sem, m)
	}
	spectest.ReplaceDo(sys, "ask", func(s *State, i, _ int) bool {
		s.Asked[i]++
		if h.askIgnored {
			return true
		}
		if s.Present[i] && h.enterHeld {
			s.Phase[i] = invariants.InCS
			if sp.claims {
				s.Ghost.Cost[i] = 0
			}
			return true
		}
		s.Clock[i]++
		s.Phase[i] = invariants.Waiting
		for j := 0; j < sp.n && h.broadcast; j++ {
			if j != i && !s.In[j].Send(sp.sem, Msg{Kind: Request, From: uint8(i), Clock: uint8(s.Clock[i])}) {
				return false
			}
		}
		if sp.claims {
			s.Ghost.Cost[i] = sp.n - 1
		}
		return true
	})
	spectest.ReplaceDo(sys, "recv", func(s *State, i, k int) bool {
		m := s.In[i].Recv(sp.sem, k)
		if m.Kind == Access {
			for j := range s.Token[i] {
				s.Token[i][j] = int(m.Token[j])
			}
			s.Present[i] = h.presentOnArrival
			s.Phase[i] = invariants.InCS
			return true
		}
		j := int(m.From)
		s.Reqs[i][j] = max(s.Reqs[i][j], int(m.Clock))
		if h.overwrite {
			s.Reqs[i][j] = int(m.Clock)
		}
		if s.Present[i] && (h.ignoreHeld || s.Phase[i] != invariants.InCS) {
			return postlude(s, i)
		}
		return true
	})
	spectest.ReplaceDo(sys, "exit", func(s *State, i, _ int) bool {
		s.Phase[i] = invariants.Idle
		return postlude(s, i)
	})
}

// Every property of the token algorithm fails on some mutant of its
// prelude, receive or postlude (docs/mutants.md).
func TestMutantsSuzukiKasami(t *testing.T) {
	var h [12]handler
	for k := range h {
		h[k] = seedHandler()
	}
	h[0].served = func(k, t int) bool { return k < t }
	h[1].served = func(k, t int) bool { return k >= t }
	h[2].record = false
	h[3].ignoreHeld = true
	h[4].keepCopy = true
	h[5].presentOnArrival = false
	h[6].broadcast = false
	h[7].enterHeld = false
	h[8].askIgnored = true
	h[9].fromZero = true
	h[10].served = func(k, t int) bool { return k > t+1 }
	h[11].overwrite = true
	p, small, p32 := params(3, 1), params(2, 2), params(3, 2)
	p.Claims, small.Claims, p32.Claims = true, true, true
	mutants := []spectest.Mutant[State]{
		{Name: "comparison flipped: the token goes to a process whose request it has served", Rule: "postlude: send the token to the first j with reqs[j] > token[j]", Params: p, Mutate: h[0].into,
			Kills: []string{"request-granted-p1", "request-granted-p2", "can-enter-p1", "can-enter-p2"}},
		{Name: "bound off by one: ≥ for >, the token goes to a process it has served", Rule: "postlude: send the token to the first j with reqs[j] > token[j]", Params: small, Mutate: h[1].into,
			Kills: []string{"entry-cost"}},
		{Name: "reset dropped: the postlude does not store the clock in the token", Rule: "postlude: token[i] ← clock", Params: small, Mutate: h[2].into,
			Kills: []string{"entry-cost"}},
		{Name: "rule order: a request passes the token on from its holder's critical section", Rule: "receive request: hand the token on if present and not in the critical section", Params: p, Mutate: h[3].into,
			Kills: []string{"mutual-exclusion", "at-most-one-token-present", "token-in-transit-iff-none-present", "entry-cost"}},
		{Name: "token copied: the sender keeps token_present", Rule: "postlude: token_present ← false on sending", Params: p, Mutate: h[4].into,
			Kills: []string{"mutual-exclusion", "at-most-one-token-present", "token-in-transit-iff-none-present", "entry-cost"}},
		{Name: "token lost: its arrival does not set token_present", Rule: "receive token: token_present ← true", Params: p, Mutate: h[5].into,
			Kills: []string{"request-granted-p0", "request-granted-p1", "request-granted-p2", "token-in-transit-iff-none-present"}},
		{Name: "broadcast dropped: a request is sent to no one", Rule: "prelude: broadcast request(clock)", Params: p, Mutate: h[6].into,
			Kills: []string{"request-granted-p1", "request-granted-p2", "can-enter-p1", "can-enter-p2"}},
		{Name: "guard dropped: a process whose token is present asks the others for it", Rule: "prelude: enter at once if token_present", Params: p, Mutate: h[7].into,
			Kills: []string{"request-granted-p0"}},
		{Name: "effect dropped: asking neither enters nor requests", Rule: "prelude", Params: p, Mutate: h[8].into,
			Kills: []string{"can-enter-p0", "can-enter-p1", "can-enter-p2"}},
		{Name: "queue order: the postlude scans from process 0, not from i+1", Rule: "postlude: for j = i+1 … n, 1 … i−1", Params: p, Mutate: h[9].into,
			Survives: "every request here is granted whatever the scan order: each process asks at most --bound times, so every run ends and no fair infinite run can starve anyone (the next row, in variant recurring, kills it)"},
		{Name: "queue order, requests recurring: the postlude scans from process 0, not from i+1", Rule: "postlude: for j = i+1 … n, 1 … i−1",
			Params: model.Params{N: 3, IDs: p.IDs, Chan: model.FIFO, Variant: "recurring"}, Fair: new(model.FairAction), Mutate: handOffFromZero,
			Kills: []string{"request-granted-p2"}},
		{Name: "comparison off by one: reqs[j] > token[j] + 1, a request one ahead is not served", Rule: "postlude: send the token to the first j with reqs[j] > token[j]", Params: p, Mutate: h[10].into,
			Kills: []string{"request-granted-p1", "request-granted-p2", "can-enter-p1", "can-enter-p2"}},
		{Name: "update order: a request sets reqs[j] to its clock, not the max of the two", Rule: "receive request(j, k): reqs[j] ← max(reqs[j], k)", Params: p32, Mutate: h[11].into,
			Survives: "nothing fails in the 20,000 states explored: the max matters only when a process's older request reaches a holder after its newer one, which needs the older one still in transit after the process was served and asked again; not shown equivalent, and not found"},
	}
	spectest.Suite[State]{
		Section: "suzukikasami (002 §3.4), bag channels, claims on", IDless: true, Chan: model.Bag,
		Build: New, Options: checker.Options{MaxStates: 20000}, Mutants: mutants,
	}.Run(t)
}
