package vlt

import (
	"fmt"
	"math/bits"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// properties are the election properties every variant checks, the link
// assumption Algorithm E rests on, and, with claims, the lemmas of 000 §3
// and §4.
func (sp *spec) properties() []model.Property[State] {
	view := func(s *State) invariants.Election { return s }
	props := []model.Property[State]{
		invariants.AtMostOneLeader("000 Prop. 3.6", view).Saying("no two processors are leaders at once"),
		invariants.DecisionStable("000 §3 (inauguration)", view).Saying("a decided processor never changes its decision"),
		invariants.ElectionComplete("000 Prop. 3.8, §3 inauguration",
			"every terminal state has exactly one leader, all others lost, every processor knowing the leader's id, and no message in transit",
			sp.complete),
		invariants.LeaderElected("000 Prop. 3.8", view),
	}
	props = append(props, invariants.ElectionLiveness("000 Prop. 3.8", view)...)
	if !sp.modified {
		props = append(props, model.InvariantProp("no-same-phase-bypass", "000 §2 (half-duplex links), §4",
			"no two messages of one phase p ≥ 1 pass each other on a link (Algorithm E's assumption)",
			func(s *State) bool { return !bypass(s) }))
	}
	if sp.claims {
		props = append(props, sp.checkedClaims()...)
	}
	return props
}

// complete: the election is over and everyone knows the outcome.
func (sp *spec) complete(s *State) bool {
	if !invariants.Agreement(s) || !s.Chans.Quiet() {
		return false
	}
	leader := -1
	for i := range s.Proc {
		if s.Proc[i].Decided == invariants.Leader {
			leader = sp.ids[i]
		}
	}
	for i := range s.Proc {
		if s.Proc[i].Leader != leader {
			return false
		}
	}
	return true
}

// bypass reports whether some link holds phase messages of one phase p ≥ 1
// going both ways at once: they pass each other on that link. (Phase-0
// messages are exchanged over every link by design: "send ⟨u,0⟩ to both
// neighbours; wait for the corresponding messages".)
func bypass(s *State) bool {
	for k := range s.Proc {
		cw, ccw := s.Chans.OnLink(s.links(), k)
		for _, a := range cw {
			for _, b := range ccw {
				if a.Kind == Chase && b.Kind == Chase && a.P >= 1 && a.P == b.P {
					return true
				}
			}
		}
	}
	return false
}

// claims3 are the claims of 000 §3 and §4, over the ghost history.
func (sp *spec) claims3() []model.Property[State] {
	n := sp.n
	// Lemma 3.1 and the per-link half of Prop. 3.9 are claims about
	// Algorithm E with its link assumption; §4 says they fail for the
	// modified version on full-duplex links.
	algorithmE := !sp.modified || sp.mode == model.HalfDuplex
	var props []model.Property[State]
	if algorithmE {
		props = append(props, model.StepProp("lemma-3-1-arrival-side", "000 Lemma 3.1",
			"a message ⟨v,p⟩ with p = PNUM(u) ≥ 1 arrives over the link opposite to the one u last sent on",
			sp.lemma31).WhenStep("no processor took a message of its own phase p ≥ 1 after sending one", ownPhaseArrives))
	}
	props = append(props,
		model.InvariantProp("lemma-3-2-colours-shrink", "000 Lemma 3.2",
			"the active colours of phase p+1 are active colours of phase p: Ã_{p+1} ⊆ Ã_p",
			sp.lemma32).When("no processor was active in a phase p ≥ 2", func(s *State) bool { return activeFrom(&s.Ghost, n, 2) }),
		model.InvariantProp("lemma-3-3-i-c-active-apart", "000 Lemma 3.3 (i)",
			"between two c-active processors of a phase p ≥ 2 lie at least two processors not active in p, both ways round",
			sp.lemma33i).When("no phase had two c-active processors", twoCActive),
		model.InvariantProp("lemma-3-5-i-shared-colour", "000 Lemma 3.5 (i)",
			"at most two active processors of a phase share a colour, and two that do have no active processor of that phase between them on one side",
			sp.lemma35i).When("no two processors active in one phase p ≥ 1 shared a colour", func(s *State) bool { return sharedColour(s, false) }),
	)
	props = append(props, sp.chasingClaims()...)
	if sp.modified {
		props = append(props, model.EndProp("sec-4-inaugurations", "000 §4 (α = β)",
			"one processor, or two that were both active with the same colour, inaugurate",
			func(s *State) bool { return s.Ghost.Inaugurations == 1 || s.Ghost.Inaugurations == 2 }))
	} else {
		props = append(props, model.EndProp("prop-3-6-i-one-inauguration", "000 Prop. 3.6 (i)",
			"exactly one processor moves to the inauguration state",
			func(s *State) bool { return s.Ghost.Inaugurations == 1 }))
	}
	props = append(props,
		model.EndProp("prop-3-6-ii-one-colour", "000 Prop. 3.6 (ii)",
			"in the phase in which a processor inaugurates, exactly one colour is active: |Ã_p| = 1",
			sp.oneColourAtInauguration).When("no processor inaugurated in a phase in which two or more were active", inauguratedAmongMany),
		model.EndProp("sec-3-phase-1-minima", "000 §3 (phase 1: between 1 and N/2 local minima active)",
			fmt.Sprintf("at a terminal state, between 1 and ⌊n/2⌋ = %d processors, local minima, were active in phase 1", n/2),
			func(s *State) bool { a := sp.activeIn(s, 1); return a >= 1 && a <= n/2 }),
		model.StepProp("prop-3-6-iii-same-id", "000 Prop. 3.6 (iii)",
			"when a processor inaugurates, every ID register holds the same value",
			sameIDAtInauguration).WhenStep("no processor inaugurated", func(b *State, _ model.Action, a *State) bool {
			return a.Ghost.Inaugurations > b.Ghost.Inaugurations
		}),
		model.EndProp("lemma-3-7-colour-count", "000 Lemma 3.7, Prop. 3.8",
			"at a terminal state, |Ã_p| ≤ |Ã_{p-2}| − |Ã_{p-1}| for every phase p ≥ 2 that occurred",
			sp.lemma37).When("no terminal state followed a phase p ≥ 2 with active processors", func(s *State) bool { return s.Ghost.hasActive(2, n) }),
		model.InvariantProp("prop-3-9-phases", "000 Prop. 3.9",
			fmt.Sprintf("at most T = %d phases (0..%d), the largest T with F_T ≤ n", MaxPhases(n), MaxPhases(n)-1),
			func(s *State) bool { return maxPNUM(s) < MaxPhases(n) }).When("no processor reached phase 1", func(s *State) bool { return maxPNUM(s) >= 1 }),
	)
	if algorithmE {
		props = append(props, model.InvariantProp("prop-3-9-one-per-link", "000 Prop. 3.9",
			"at most one message of each phase p ≥ 1 travels over each link",
			sp.onePerLink).When("no message of a phase p ≥ 1 was sent", phaseMessageSent))
	}
	perPhase := "prop-3-9-messages-per-phase"
	ref := "000 Prop. 3.9"
	if sp.modified {
		perPhase, ref = "prop-4-2-messages-per-phase", "000 Prop. 4.2"
	}
	props = append(props,
		model.InvariantProp(perPhase, ref,
			fmt.Sprintf("phase 0 sends at most 2n = %d messages and every later phase at most n = %d", 2*n, n),
			sp.messagesPerPhase).When("no phase message was sent", func(s *State) bool { return s.Ghost.sentTotal() > 0 }),
		model.EndProp("prop-3-9-phase-0-messages", "000 Prop. 3.9, §3",
			fmt.Sprintf("phase 0 sends exactly 2n = %d messages", 2*n),
			func(s *State) bool { return s.Ghost.Messages(0, n) == 2*n }),
	)
	if sp.modified && sp.mode == model.FullDuplex && HeadOnChases(sp.ids) {
		props = append(props, model.WitnessProp("prop-4-2-bypass", "000 Prop. 4.2",
			"in some run two messages of one phase p ≥ 1 pass each other on a link (offered when two phase-1 chases meet head-on)",
			bypass))
	}
	return props
}

// MessageBound is Prop. 3.9's count of phase messages for a ring of n: 2n
// in phase 0 and at most n in each of the other T-1 phases (MaxPhases).
func MessageBound(n int) int { return 2*n + (MaxPhases(n)-1)*n }

// MaxPhases is the bound in the proof of Prop. 3.9: the largest T with
// F_T ≤ n (F_1 = F_2 = 1), where T is the number of phases 0..T-1.
func MaxPhases(n int) int {
	t, a, b := 1, 1, 1 // F_t = a, F_{t+1} = b
	for b <= n {
		t, a, b = t+1, b, a+b
	}
	return t
}

func maxPNUM(s *State) int {
	m := 0
	for i := range s.Proc {
		m = max(m, s.Proc[i].PNUM)
	}
	return m
}

// lemma31 checks every phase message a recv step takes.
func (sp *spec) lemma31(b *State, a model.Action, _ *State) bool {
	if a.Rule != ruleRecv {
		return true
	}
	i := a.Proc
	taken := b.Chans.JointPorts(b.links(), i, a.Choice)
	for _, port := range ports {
		if !taken.Has(port) {
			continue
		}
		m := b.Chans.Head(b.links(), i, port)
		if m.Kind == Chase && m.P >= 1 && m.P == b.Proc[i].PNUM && b.Ghost.LastSent[i] == int8(port) {
			return false
		}
	}
	return true
}

func (sp *spec) lemma32(s *State) bool {
	for p := 0; p+1 < s.Ghost.Phases(sp.n); p++ {
		next, cur := s.Ghost.colours(p+1, sp.n, sp.rank), s.Ghost.colours(p, sp.n, sp.rank)
		if next&^cur != 0 {
			return false
		}
	}
	return true
}

// between counts the processors strictly between u and v going clockwise
// from u that are not active in the phase whose colours are act.
func between(act []int, u, v int) int {
	n, c := len(act), 0
	for k := (u + 1) % n; k != v; k = (k + 1) % n {
		if act[k] == 0 {
			c++
		}
	}
	return c
}

func (sp *spec) lemma33i(s *State) bool {
	g := &s.Ghost
	for p := 2; p < g.Phases(sp.n); p++ {
		act, how := g.active(p, sp.n), g.How[p*sp.n:(p+1)*sp.n]
		for u := range act {
			for v := u + 1; v < len(act); v++ {
				if how[u] == CActive && how[v] == CActive && (between(act, u, v) < 2 || between(act, v, u) < 2) {
					return false
				}
			}
		}
	}
	return true
}

func (sp *spec) lemma35i(s *State) bool {
	g := &s.Ghost
	for p := 1; p < g.Phases(sp.n); p++ {
		act := g.active(p, sp.n)
		for u := range act {
			shared := 0
			for v := range act {
				if v == u || act[u] == 0 || act[v] != act[u] {
					continue
				}
				shared++
				if !noneActiveBetween(act, u, v) && !noneActiveBetween(act, v, u) {
					return false
				}
			}
			if shared > 1 {
				return false
			}
		}
	}
	return true
}

// noneActiveBetween: no processor strictly between u and v, clockwise from
// u, is active in the phase whose colours are act.
func noneActiveBetween(act []int, u, v int) bool {
	n := len(act)
	for k := (u + 1) % n; k != v; k = (k + 1) % n {
		if act[k] != 0 {
			return false
		}
	}
	return true
}

func sameIDAtInauguration(b *State, _ model.Action, a *State) bool {
	if a.Ghost.Inaugurations == b.Ghost.Inaugurations {
		return true
	}
	for i := range a.Proc {
		if a.Proc[i].ID != a.Proc[0].ID {
			return false
		}
	}
	return true
}

func (sp *spec) lemma37(s *State) bool {
	g := &s.Ghost
	for p := 2; p < g.Phases(sp.n); p++ {
		count := func(q int) int { return bits.OnesCount64(g.colours(q, sp.n, sp.rank)) }
		if count(p) > count(p-2)-count(p-1) {
			return false
		}
	}
	return true
}

func (sp *spec) onePerLink(s *State) bool {
	g := &s.Ghost
	for p := 1; p < g.Phases(sp.n); p++ {
		for k := 0; k < sp.n; k++ {
			if g.onLink(p, sp.n, k) > 1 {
				return false
			}
		}
	}
	return true
}

func (sp *spec) messagesPerPhase(s *State) bool {
	g := &s.Ghost
	for p := 0; p < g.Phases(sp.n); p++ {
		bound := sp.n
		if p == 0 {
			bound = 2 * sp.n
		}
		if g.Messages(p, sp.n) > bound {
			return false
		}
	}
	return true
}

// oneColourAtInauguration is Prop. 3.6 (ii) over the history: for every
// phase p in which a processor moved to the inauguration state, the
// processors active in p share one colour.
func (sp *spec) oneColourAtInauguration(s *State) bool {
	for p := 0; p < s.Ghost.Phases(sp.n); p++ {
		if s.Ghost.InauguratedIn&(1<<p) != 0 && bits.OnesCount64(s.Ghost.colours(p, sp.n, sp.rank)) != 1 {
			return false
		}
	}
	return true
}

// activeIn is |A_p|, the processors active in phase p (0 for a phase no
// run reached).
func (sp *spec) activeIn(s *State, p int) int {
	if p >= s.Ghost.Phases(sp.n) {
		return 0
	}
	c := 0
	for _, colour := range s.Ghost.active(p, sp.n) {
		if colour != 0 {
			c++
		}
	}
	return c
}
