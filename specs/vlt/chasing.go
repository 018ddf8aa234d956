package vlt

import "github.com/ringcheck/mc/model"

// The claims of 000 §3 that fix the way the chase goes on from phase to
// phase: which processors can turn active how (Lemma 3.3 (ii), (iii)),
// where active processors send (Lemma 3.3 (iv), Lemma 3.5 (ii), (iii)), and
// that a phase with active processors is followed by another unless it
// finds the leader (Prop. 3.4). They read the ghost history: how each
// processor turned active in each phase and which way round it sent its
// phase message (Ghost.How, Ghost.Toward), and the phases in which a
// processor inaugurated (Ghost.InauguratedIn).
func (sp *spec) chasingClaims() []model.Property[State] {
	return []model.Property[State]{
		model.InvariantProp("lemma-3-3-ii-c-active-not-again", "000 Lemma 3.3 (ii)",
			"a processor c-active in phase p is not c-active in phase p+1",
			func(s *State) bool { return sp.neverCActiveAfter(s, CActive) }).
			When("no processor c-active in a phase p ≥ 1 had a c-active processor in phase p+1", func(s *State) bool { return activeAgainAfter(s, CActive) }),
		model.InvariantProp("lemma-3-3-iii-d-active-not-c-active", "000 Lemma 3.3 (iii)",
			"a processor d-active in phase p is not c-active in phase p+1",
			func(s *State) bool { return sp.neverCActiveAfter(s, DActive) }).
			When("no processor d-active in a phase p ≥ 1 had a c-active processor in phase p+1", func(s *State) bool { return activeAgainAfter(s, DActive) }),
		model.InvariantProp("lemma-3-3-iv-neighbours-not-head-on", "000 Lemma 3.3 (iv)",
			"two neighbours active in one phase p ≥ 1 do not send their phase-p messages to each other over the link that joins them",
			sp.lemma33iv).When("no two neighbours were active in one phase p ≥ 1", neighboursActive),
		model.EndProp("prop-3-4-no-silent-phase", "000 Prop. 3.4",
			"at a terminal state, every phase p ≥ 1 with an active processor either found the leader (a processor inaugurated in phase p) or has active processors in phase p+1",
			sp.prop34).When("no terminal state followed a phase p ≥ 1 that had active processors and found no leader", chaseGoesOn),
		model.InvariantProp("lemma-3-5-ii-shared-colour-interval", "000 Lemma 3.5 (ii)",
			"while two processors active in phase p with the same colour α are both still in phase p, every processor between them on one side has α in its ID register",
			sp.lemma35ii).When("no two processors active in one phase with one colour were both still in it", func(s *State) bool { return sharedColour(s, true) }),
		model.InvariantProp("lemma-3-5-iii-shared-colour-away", "000 Lemma 3.5 (iii)",
			"two processors active in phase p with the same colour α send their phase-p messages out away from each other, out of an interval that holds no processor active in p and, while both are in phase p, only α in the ID registers",
			sp.lemma35iii).When("no two processors active in one phase p ≥ 1 shared a colour", func(s *State) bool { return sharedColour(s, false) }),
	}
}

// neverCActiveAfter: no processor that turned active as how in a phase
// p ≥ 1 is c-active in phase p+1 (Lemma 3.3 (ii) for CActive, (iii) for
// DActive). The proof: it would need two phase-p messages from both sides
// while in phase p, and Lemma 3.1 lets one in only from the side it did
// not send on.
func (sp *spec) neverCActiveAfter(s *State, how Activation) bool {
	g, n := &s.Ghost, sp.n
	for p := 1; p+1 < g.Phases(n); p++ {
		for u := range n {
			if g.How[p*n+u] == how && g.How[(p+1)*n+u] == CActive {
				return false
			}
		}
	}
	return true
}

// lemma33iv: for each link k, joining k and k+1 (ring.Ring), the two are
// not both active in a phase p ≥ 1 with k sending clockwise and k+1
// counter-clockwise.
func (sp *spec) lemma33iv(s *State) bool {
	g, n := &s.Ghost, sp.n
	for p := 1; p < g.Phases(n); p++ {
		to := g.Toward[p*n : (p+1)*n]
		for k := range n {
			if to[k] == clockwise && to[(k+1)%n] == counterClockwise {
				return false
			}
		}
	}
	return true
}

// hasActive reports whether some processor is active in phase p.
func (g *Ghost) hasActive(p, n int) bool {
	if p >= g.Phases(n) {
		return false
	}
	for _, c := range g.active(p, n) {
		if c != 0 {
			return true
		}
	}
	return false
}

func (sp *spec) prop34(s *State) bool {
	g, n := &s.Ghost, sp.n
	for p := 1; p < g.Phases(n); p++ {
		if g.hasActive(p, n) && !g.hasActive(p+1, n) && g.InauguratedIn>>p&1 == 0 {
			return false
		}
	}
	return true
}

// sharedColours calls f for every phase p ≥ 1 and every pair u < v of
// processors active in p with the same colour, until f returns false.
func (g *Ghost) sharedColours(n int, f func(p, u, v int) bool) bool {
	for p := 1; p < g.Phases(n); p++ {
		act := g.active(p, n)
		for u := range n {
			for v := u + 1; v < n; v++ {
				if act[u] != 0 && act[u] == act[v] && !f(p, u, v) {
					return false
				}
			}
		}
	}
	return true
}

// allID reports whether every processor strictly between u and v, going
// clockwise from u, has id in its ID register.
func allID(s *State, u, v, id int) bool {
	n := len(s.Proc)
	for k := (u + 1) % n; k != v; k = (k + 1) % n {
		if s.Proc[k].ID != id {
			return false
		}
	}
	return true
}

// inPhase: both u and v are still in phase p.
func inPhase(s *State, p, u, v int) bool { return s.Proc[u].PNUM == p && s.Proc[v].PNUM == p }

func (sp *spec) lemma35ii(s *State) bool {
	return s.Ghost.sharedColours(sp.n, func(p, u, v int) bool {
		alpha := s.Ghost.Colour[p*sp.n+u]
		return !inPhase(s, p, u, v) || allID(s, u, v, alpha) || allID(s, v, u, alpha)
	})
}

// lemma35iii: with u < v sharing colour α in phase p, either u sends
// counter-clockwise and v clockwise, leaving the interval clockwise from u
// to v, or u clockwise and v counter-clockwise, leaving the one from v to u.
func (sp *spec) lemma35iii(s *State) bool {
	g, n := &s.Ghost, sp.n
	return g.sharedColours(n, func(p, u, v int) bool {
		from, to := u, v
		switch [2]int8{g.Toward[p*n+u], g.Toward[p*n+v]} {
		case [2]int8{counterClockwise, clockwise}:
		case [2]int8{clockwise, counterClockwise}:
			from, to = v, u
		default:
			return false
		}
		alpha := g.Colour[p*n+u]
		return noneActiveBetween(g.active(p, n), from, to) && (!inPhase(s, p, u, v) || allID(s, from, to, alpha))
	})
}
