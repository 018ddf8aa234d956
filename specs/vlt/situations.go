package vlt

import "github.com/ringcheck/mc/model"

// The situations the claims of 000 §3 and §4 speak of (model/vacuity.go):
// the case in which each can fail, which props.go and chasing.go declare
// with the claim. A claim checked where its situation never arises passes
// vacuously: the default ring never goes past phase 1, where Lemma 3.2
// and 3.3 have nothing to say (doc.go lists the rings that reach them).

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
