package vlt

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The situations the claims of 000 §3 and §4 speak of (issue 35): the case
// in which each can fail. A claim checked where its situation never arises
// passes vacuously.

// activeFrom reports whether some processor is active in a phase p ≥ from.
func activeFrom(g *Ghost, n, from int) bool {
	for p := from; p < g.Phases(n); p++ {
		if g.hasActive(p, n) {
			return true
		}
	}
	return false
}

// twoCActive: two processors c-active in one phase (Lemma 3.3 (i)).
func twoCActive(s *State) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 2; p < g.Phases(n); p++ {
		c := 0
		for u := range n {
			if g.How[p*n+u] == CActive {
				c++
			}
		}
		if c >= 2 {
			return true
		}
	}
	return false
}

// activeAgainAfter: a processor that turned active as how in a phase p ≥ 1
// when some processor is c-active in phase p+1, so that the claim that it
// is not that one has a c-active processor to tell apart (Lemma 3.3 (ii),
// (iii)).
func activeAgainAfter(s *State, how Activation) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 1; p+1 < g.Phases(n); p++ {
		cNext := false
		for v := range n {
			cNext = cNext || g.How[(p+1)*n+v] == CActive
		}
		for u := range n {
			if cNext && g.How[p*n+u] == how {
				return true
			}
		}
	}
	return false
}

// neighboursActive: two neighbours active in one phase p ≥ 1 (Lemma 3.3
// (iv)).
func neighboursActive(s *State) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 1; p < g.Phases(n); p++ {
		to := g.Toward[p*n : (p+1)*n]
		for k := range n {
			if to[k] != noDir && to[(k+1)%n] != noDir {
				return true
			}
		}
	}
	return false
}

// sharedColour: two processors active in one phase p ≥ 1 with one colour,
// both still in phase p if stillIn (Lemma 3.5).
func sharedColour(s *State, stillIn bool) bool {
	found := false
	s.Ghost.sharedColours(len(s.Proc), func(p, u, v int) bool {
		found = !stillIn || inPhase(s, p, u, v)
		return !found
	})
	return found
}

// chaseGoesOn: a phase p ≥ 1 had active processors and found no leader,
// so Prop. 3.4 asks for active processors in p+1.
func chaseGoesOn(s *State) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 1; p < g.Phases(n); p++ {
		if g.hasActive(p, n) && g.InauguratedIn>>p&1 == 0 {
			return true
		}
	}
	return false
}

// inauguratedAmongMany: a processor inaugurated in a phase in which two or
// more processors were active, whose colours Prop. 3.6 (ii) says are one.
func inauguratedAmongMany(s *State) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 0; p < g.Phases(n); p++ {
		if g.InauguratedIn>>p&1 == 0 {
			continue
		}
		c := 0
		for _, colour := range g.active(p, n) {
			if colour != 0 {
				c++
			}
		}
		if c >= 2 {
			return true
		}
	}
	return false
}

// ownPhaseArrives: a recv step takes a message of the processor's own
// phase p ≥ 1 after it sent one (Lemma 3.1's "arrives over the link
// opposite").
func ownPhaseArrives(b *State, a model.Action, _ *State) bool {
	if a.Rule != ruleRecv || b.Ghost.LastSent[a.Proc] == noDir {
		return false
	}
	taken := b.Chans.JointPorts(b.links(), a.Proc, a.Choice)
	for _, port := range ports {
		if taken.Has(port) {
			if m := b.Chans.Head(b.links(), a.Proc, port); m.Kind == Chase && m.P >= 1 && m.P == b.Proc[a.Proc].PNUM {
				return true
			}
		}
	}
	return false
}

// phaseMessageSent: a message of a phase p ≥ 1 has been sent (the bounds
// of Prop. 3.9 and 4.2 on later phases).
func phaseMessageSent(s *State) bool {
	g, n := &s.Ghost, len(s.Proc)
	for p := 1; p < g.Phases(n); p++ {
		if g.Messages(p, n) > 0 {
			return true
		}
	}
	return false
}

func terminal(*State) bool { return true }

// situations are the situations of every claim, by claim name.
var situations = map[string]spectest.Situation[State]{
	"lemma-3-1-arrival-side":              {Step: ownPhaseArrives},
	"lemma-3-2-colours-shrink":            {State: func(s *State) bool { return activeFrom(&s.Ghost, len(s.Proc), 2) }},
	"lemma-3-3-i-c-active-apart":          {State: twoCActive},
	"lemma-3-3-ii-c-active-not-again":     {State: func(s *State) bool { return activeAgainAfter(s, CActive) }},
	"lemma-3-3-iii-d-active-not-c-active": {State: func(s *State) bool { return activeAgainAfter(s, DActive) }},
	"lemma-3-3-iv-neighbours-not-head-on": {State: neighboursActive},
	"lemma-3-5-i-shared-colour":           {State: func(s *State) bool { return sharedColour(s, false) }},
	"lemma-3-5-ii-shared-colour-interval": {State: func(s *State) bool { return sharedColour(s, true) }},
	"lemma-3-5-iii-shared-colour-away":    {State: func(s *State) bool { return sharedColour(s, false) }},
	"prop-3-4-no-silent-phase":            {End: chaseGoesOn},
	"prop-3-6-i-one-inauguration":         {End: terminal},
	"sec-4-inaugurations":                 {End: func(s *State) bool { return s.Ghost.Inaugurations == 2 }},
	"prop-3-6-ii-one-colour":              {End: inauguratedAmongMany},
	"sec-3-phase-1-minima":                {End: func(s *State) bool { n := len(s.Proc); return (&spec{n: n}).activeIn(s, 1) == n/2 }},
	"prop-3-6-iii-same-id":                {Step: func(b *State, _ model.Action, a *State) bool { return a.Ghost.Inaugurations > b.Ghost.Inaugurations }},
	"lemma-3-7-colour-count":              {End: func(s *State) bool { return s.Ghost.hasActive(2, len(s.Proc)) }},
	"prop-3-9-phases":                     {State: func(s *State) bool { return maxPNUM(s) >= 2 }},
	"prop-3-9-one-per-link":               {State: phaseMessageSent},
	"prop-3-9-messages-per-phase":         {State: phaseMessageSent},
	"prop-4-2-messages-per-phase":         {State: phaseMessageSent},
	"prop-3-9-phase-0-messages":           {End: terminal},
	"prop-4-2-bypass":                     {State: bypass},
}

// situation is the situation of the claim called name, with its name.
func situation(name string) spectest.Situation[State] {
	sit, ok := situations[name]
	if !ok {
		panic("no situation for claim " + name)
	}
	sit.Claim = name
	return sit
}
