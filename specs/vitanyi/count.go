package vitanyi

import (
	"fmt"
	"slices"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// measures are the ghost counters whose maximum over all runs mc reports.
func measures() []model.Measure[State] {
	return []model.Measure[State]{
		{Name: "messages", Ref: Ref + " (2)", Doc: "messages sent in a run: wakeups, election messages and sleepwells",
			Value: func(s *State) int { return s.Ghost.Messages }, Reads: appendGhost},
		{Name: "bits", Ref: Ref + " (bit complexity)", Doc: "bits sent in a run: 1 per wakeup and sleepwell, the dyadic length of j per M_j",
			Value: func(s *State) int { return s.Ghost.Bits }, Reads: appendGhost},
	}
}

// countClaims are the message-count claims: Le Lann's quadratic cap for
// every timing, reached when the drift is unbounded; the paper's linear
// bounds when it is bounded.
func (sp *spec) countClaims() []model.Property[State] {
	n := sp.n
	quadratic := 2*n + n*(n+1)/2
	props := []model.Property[State]{
		model.InvariantProp("messages-quadratic-cap", "001 §1 (Le Lann: O(N²)); §3 (\"square in N\")",
			fmt.Sprintf("at most 2N + N(N+1)/2 = %d messages: an M_j dies at the latest at the first lower id after its origin", quadratic),
			func(s *State) bool { return s.Ghost.Messages <= quadratic }).Reading(appendGhost).When("no message was sent", sentAny),
	}
	if sp.drift == 0 {
		if ascending(sp.ids) {
			props = append(props, model.WitnessProp("messages-quadratic-reached", "001 §3 (processors in ascending order clockwise)",
				fmt.Sprintf("some run sends 2N + N(N+1)/2 = %d messages: every M_j reaches the lowest id", quadratic),
				func(s *State) bool { return s.Ghost.Messages == quadratic }).Reading(appendGhost))
		}
		return props
	}
	ratio := float64(sp.drift)
	msgs, bits := sp.paperBound(ratio, messageCost), sp.paperBound(ratio, bitCost)
	props = append(props,
		model.InvariantProp("messages-within-bound", "001 §2 (2)",
			fmt.Sprintf("at most 2N + N(u/m)(f(l)+1)Σ1/f(i) = %.2f messages, u/m read as K = %d", msgs, sp.drift),
			func(s *State) bool { return float64(s.Ghost.Messages) <= msgs }).Reading(appendGhost).When("no message was sent", sentAny),
		model.InvariantProp("bits-within-bound", "001 §2 (bit complexity)",
			fmt.Sprintf("at most 2N + N(u/m)(f(l)+1)Σ|i|/f(i) = %.2f bits, |i| the dyadic length of i, u/m read as K = %d", bits, sp.drift),
			func(s *State) bool { return float64(s.Ghost.Bits) <= bits }).Reading(appendGhost).When("no message was sent", sentAny))
	if sp.p.Variant == "scaled" {
		five := 5 * n
		props = append(props, model.InvariantProp("messages-below-5n", "001 §3 (f(i) = u2^i/m)",
			fmt.Sprintf("fewer than 5N = %d messages", five),
			func(s *State) bool { return s.Ghost.Messages < five }).Reading(appendGhost).When("no message was sent", sentAny))
	}
	return props
}

// sentAny: a message has been sent, the count the claims bound.
func sentAny(s *State) bool { return s.Ghost.Messages > 0 }

// messageCost and bitCost are what one pass of M_i costs in the two bounds:
// one message; its length in bits. The paper writes log i for the length,
// which is 0 for i = 1 although M_1 takes a bit; we use the dyadic length.
func messageCost(int) float64 { return 1 }
func bitCost(i int) float64   { return float64(DyadicLen(i)) }

// paperBound is §2's bound on a run, 2N + N(u/m)(f(l)+1) Σ_{i∈I} c(i)/f(i),
// for this ring's ids and f: with c(i) = 1 it is (2), on messages; with c(i)
// the length of M_i it is the bound on bits.
func (sp *spec) paperBound(ratio float64, c func(i int) float64) float64 {
	sum := 0.0
	for _, id := range sp.ids {
		sum += c(id) / float64(sp.hold[id])
	}
	n := float64(sp.n)
	return 2*n + n*ratio*float64(sp.hold[sp.ids[sp.leader]]+1)*sum
}

// ascending reports whether the ids increase clockwise from the lowest, as
// in §3's adversarial placement.
func ascending(ids []int) bool {
	rev := slices.Clone(ids)
	slices.Reverse(rev)
	return ring.CyclicallyDescending(rev)
}
