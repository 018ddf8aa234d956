package vlt

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// The claims at rings too large to explore, where only mc simulate goes
// (docs/simulate.md). The history the claims read is kept at any n; what
// changes beyond maxPairwiseN is which claims read it.

// maxPairwiseN is the largest ring on which --claims checks every claim.
// Beyond it the pairwise claims are left out: Lemma 3.2 and 3.7 keep a
// phase's colour set in 64 bits (Ghost.colours), and Lemma 3.3 (i) and 3.5
// compare every pair of processors of every phase, O(n²) a phase, after
// every step. The claims that stay read each phase's history once per
// step, and Prop. 3.9's (4.2's) message claims are among them.
const maxPairwiseN = 64

// pairwiseClaims name the claims left out beyond maxPairwiseN.
var pairwiseClaims = []string{
	"lemma-3-2-colours-shrink",
	"lemma-3-3-i-c-active-apart",
	"lemma-3-5-i-shared-colour",
	"lemma-3-5-ii-shared-colour-interval",
	"lemma-3-5-iii-shared-colour-away",
	"lemma-3-7-colour-count",
	"prop-3-6-ii-one-colour",
}

// checkedClaims are the claims --claims checks on this ring: all of 000 §3 and
// §4 (claims3) up to maxPairwiseN, the others beyond.
func (sp *spec) checkedClaims() []model.Property[State] {
	props := sp.claims3()
	if sp.n <= maxPairwiseN {
		return props
	}
	return slices.DeleteFunc(props, func(p model.Property[State]) bool { return slices.Contains(pairwiseClaims, p.Name) })
}

// measures are the phases a run reaches and, with claims, the phase
// messages it sent: the ghost count of Prop. 3.9 (4.2), which mc simulate
// and mc sweep --sample count messages by. The exhaustive sweep counts the
// same messages off the View; the announcement is not one of them.
func (sp *spec) measures() []model.Measure[State] {
	ms := []model.Measure[State]{{Name: "phases", Ref: "000 Prop. 3.8",
		Doc: "the phases a run has reached, phase 0 included: one more than the largest PNUM", Value: func(s *State) int { return maxPNUM(s) + 1 }}}
	if !sp.claims {
		return ms
	}
	ref := "000 Prop. 3.9"
	if sp.modified {
		ref = "000 Prop. 4.2"
	}
	return append(ms, model.Measure[State]{Name: "election-messages", Ref: ref + " (1.44 n log n + O(n) phase messages)",
		Doc:   "phase messages ⟨v,p⟩ sent in a run, every phase (the announcement apart)",
		Value: func(s *State) int { return s.Ghost.sentTotal() },
		Reads: func(buf []byte, s *State) []byte { return append(buf, s.Ghost.Crossed...) }})
}

// sentTotal is the number of phase messages sent so far, every phase.
func (g *Ghost) sentTotal() int {
	t := 0
	for _, c := range g.Crossed {
		t += int(c)
	}
	return t
}
