package hp

import (
	"fmt"
	"slices"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// properties are the election properties with w as the winner, the round
// bound, and with claims on the seed's claims over the ghosts.
func (sp *spec) properties(w invariants.Winner) []model.Property[State] {
	props := invariants.OutcomeProperties(Ref, w,
		func(s *State) *invariants.Outcome { return &s.Out },
		func(s *State) bool { return s.In.Quiet() })
	props = append(props, sp.roundBoundProp())
	if !sp.distance(1) {
		label, _ := basicSurvivor(sp.p.IDs)
		props = append(props, model.InvariantProp("winner-label-is-basic", Ref+" Promotion by witness (it would get promoted at w anyway; see winner.go)",
			fmt.Sprintf("a leader's message carries label %d, the survivor of BASIC's rounds", label),
			func(s *State) bool { return leaderLabelIs(s, label) }).Reading(appendLeaderLabels).
			When("no process became leader", func(s *State) bool { return slices.Contains(s.Out.Decided, invariants.Leader) }))
	}
	if !sp.p.Claims {
		return props
	}
	props = append(props, invariants.AnnouncementProps(Ref+" (all other machines agree as to who the leader is)", sp.p.N,
		func(s *State) int { return s.Ghost.Announced })...)
	claims := len(props)
	props = append(props,
		model.InvariantProp("round-never-destroys-all", Ref+" Correctness (the algorithm never deletes all messages)",
			"in no round are all the messages that entered it destroyed",
			func(s *State) bool {
				g := &s.Ghost
				for r := range g.Born {
					if g.Born[r] > 0 && g.Destroyed[r] >= g.Born[r] {
						return false
					}
				}
				return true
			}).When("no message was destroyed", func(s *State) bool { return slices.ContainsFunc(s.Ghost.Destroyed, positive) }),
		sp.destroysOneProp(),
		model.InvariantProp("round-within-one-turn", Ref+" BASIC (each message has to travel to the next sender on the ring)",
			fmt.Sprintf("no election message travels more than n = %d edges in one round: it meets a node of its round within one turn", sp.p.N),
			func(s *State) bool { return withinOneTurn(s) }).
			When("no election message was in transit", electionInTransit))
	if sp.distance(1) {
		props = append(props, model.StepProp("distance-promotion-edges", Ref+" Promotion by distance (counter set to F_{i+2})",
			"a message promoted by distance out of round i has travelled exactly F(i+2) edges since its sender sent it",
			sp.distanceEdgesHold).
			WhenStep("no message was promoted by distance", promotedByDistance))
	}
	if sp.witness(2) && sp.distance(1) { // elect and elect-literal
		props = append(props, model.InvariantProp("theorem-1-round-pairs", Ref+" Theorem 1 (proof: rounds i and i+1), Lemma 3",
			"for every even round i, with x messages entering round i+1: round i's messages traverse at most n − x·F_i edges (Lemma 3) and round i+1's at most min(x·F_{i+3}, n) (promotion by distance)",
			sp.roundPairsHold).
			When("no message entered an odd round", func(s *State) bool { return enteredOddRound(s, 1) }),
			model.InvariantProp("theorem-1-odd-round-messages", Ref+" Theorem 1 (proof: every message in odd round i travels at least F_i steps)",
				"for every odd round i, at most n/F_i messages enter it: (messages entering i)·F_i ≤ n",
				sp.oddRoundMessagesHold).
				When("no message entered an odd round past 1 (where F_i > 1)", func(s *State) bool { return enteredOddRound(s, 3) }),
			sp.totalProp())
		props = append(props, sp.lemmaProps()...)
	}
	// The claims read the ghosts, those that messages carry included.
	for i := claims; i < len(props); i++ {
		props[i].Reads = appendHistory
	}
	return props
}

// roundBoundProp is round-bound: in ELECT the count of rounds of the
// proof of 003 Theorem 1, with its O(1) made exact, elsewhere BASIC's
// (bounds.go).
func (sp *spec) roundBoundProp() model.Property[State] {
	ref, doc := Ref+" Correctness (see bounds.go)", fmt.Sprintf("no node or message is ever in a round past %d", sp.maxRound)
	if sp.witness(2) && sp.distance(1) {
		ref = Ref + " Theorem 1 (proof: at most F⁻¹(n) + O(1) rounds; see bounds.go)"
		doc += fmt.Sprintf(" (the first odd round i with 2·F_i > n, or i₀ + n − 1 if smaller; F⁻¹(%d) = %d)", sp.p.N, fibInverse(sp.p.N))
	}
	return model.InvariantProp("round-bound", ref, doc, func(s *State) bool { return sp.withinRounds(s) }).Reading(sp.appendRounds)
}

// The claims' situations (model.Property.When), which read only the
// ghosts and the channels, as the claims do.

func positive(x int) bool { return x > 0 }

// electionInTransit: an election message is in some channel.
func electionInTransit(s *State) bool {
	for i := range s.In {
		for _, m := range s.In[i].Messages() {
			if m.Kind == Elect {
				return true
			}
		}
	}
	return false
}

// enteredOddRound: a message entered an odd round from round first on.
func enteredOddRound(s *State, first int) bool {
	for r := first; r < len(s.Ghost.Born); r += 2 {
		if s.Ghost.Born[r] > 0 {
			return true
		}
	}
	return false
}

// promotedByDistance: the step promoted a message by distance.
func promotedByDistance(before *State, _ model.Action, after *State) bool {
	return !slices.Equal(before.Ghost.ByDistance, after.Ghost.ByDistance)
}

// appendRounds is what round-bound reads: per node whether it is past the
// bound, and how many messages in transit are (a sum over messages, which
// an action changes by what it takes and sends: model.Property.Reads).
func (sp *spec) appendRounds(buf []byte, s *State) []byte {
	past := 0
	for i := range s.Rnd {
		buf = model.AppendBool(buf, s.Rnd[i] > sp.maxRound)
		for _, m := range s.In[i].Messages() {
			if m.Rnd > sp.maxRound {
				past++
			}
		}
	}
	return model.AppendUint(buf, uint64(past))
}

// appendLeaderLabels is what winner-label-is-basic reads: per node its
// decision and, if it leads, its label (a function of its own variables).
func appendLeaderLabels(buf []byte, s *State) []byte {
	for p, d := range s.Out.Decided {
		buf = append(buf, byte(d))
		if d == invariants.Leader {
			buf = model.AppendUint(buf, uint64(s.Label[p]))
		}
	}
	return buf
}

// appendHistory is what the claims read: the ghosts, and the channels,
// whose messages carry the Hops ghost. With claims on every rule writes
// the ghosts, so the reduction has nothing to gain from finer reads.
func appendHistory(buf []byte, s *State) []byte {
	return appendGhost(s.In.AppendTo(buf), s)
}

func withinOneTurn(s *State) bool {
	for i := range s.In {
		for _, m := range s.In[i].Messages() {
			if m.Kind == Elect && m.Hops > len(s.In) {
				return false
			}
		}
	}
	return true
}

func leaderLabelIs(s *State, label int) bool {
	for p, d := range s.Out.Decided {
		if d == invariants.Leader && s.Label[p] != label {
			return false
		}
	}
	return true
}

func (sp *spec) withinRounds(s *State) bool {
	for i := range s.Rnd {
		if s.Rnd[i] > sp.maxRound {
			return false
		}
		for _, m := range s.In[i].Messages() {
			if m.Rnd > sp.maxRound {
				return false
			}
		}
	}
	return true
}

// destroysOneProp is 003's "In every round at least one message gets
// deleted", for every round that more than one message entered. With
// promotion by distance the seed itself warns that a round may pass with
// none destroyed ("This could potentially allow a round to pass without
// destroying any messages"); the claim is then checked for the rounds in
// which no message was promoted by distance.
func (sp *spec) destroysOneProp() model.Property[State] {
	doc, unmet := "every round that two or more messages entered destroyed at least one", "no round had two or more messages enter it"
	if sp.distance(1) {
		doc = "every round that two or more messages entered, none of them promoted by distance, destroyed at least one"
		unmet += " with none promoted by distance"
	}
	// crowded: two or more messages entered round r, none promoted by
	// distance: the claim's antecedent.
	crowded := func(g *Ghost, r int) bool { return g.Born[r] >= 2 && g.ByDistance[r] == 0 }
	return model.EndProp("round-destroys-one", Ref+" Correctness (in every round at least one message gets deleted)", doc,
		func(s *State) bool {
			g := &s.Ghost
			for r := range g.Born {
				if crowded(g, r) && g.Destroyed[r] == 0 {
					return false
				}
			}
			return true
		}).
		When(unmet, func(s *State) bool {
			for r := range s.Ghost.Born {
				if crowded(&s.Ghost, r) {
					return true
				}
			}
			return false
		})
}

// distanceEdgesHold checks a transition: if it promoted a message by
// distance, that message (the head of the receiver's channel before) had
// travelled F(rnd+2) edges.
func (sp *spec) distanceEdgesHold(before *State, a model.Action, after *State) bool {
	for r := range after.Ghost.ByDistance {
		if after.Ghost.ByDistance[r] != before.Ghost.ByDistance[r] {
			m := before.In[a.Proc].Peek(sp.net.Sem, a.Choice)
			return m.Hops == fib(m.Rnd+2)
		}
	}
	return true
}

// roundPairsHold is the inequality the proof of 003 Theorem 1 sums, with
// the proof's own constants, for each even round i and the odd round i+1:
// if x messages enter round i+1, the messages of round i traverse at most
// n − x·F_i edges (each promoted one at least F_i fewer than in BASIC,
// whose round traverses at most n: Lemma 3), and those of round i+1 at
// most min(x·F_{i+3}, n) (each stops within its counter F_{i+3}, and no
// two cross one edge); together at most min(n + x(F_{i+3} − F_i),
// 2n − x·F_i) ≤ n(4 − √5 + φ^{-2i}), which summed over the rounds is
// 1.271 n log n + O(n). Edges only grow and x only grows, so a violation
// at some state is one at every later state: the check holds in every
// state exactly when it holds at the end. F_i and F_{i+3} are carried
// from one pair of rounds to the next, not computed afresh: there are
// about n rounds, and mc simulate checks this after every step.
func (sp *spec) roundPairsHold(s *State) bool {
	g, n := &s.Ghost, sp.p.N
	fi, fi3 := fib(0), fib(3) // F_i, F_{i+3}, with F_{i+2} in fi2
	fi2 := fib(2)
	for i := 0; i+1 < len(g.EdgesIn); i += 2 {
		x := g.Born[i+1]
		if g.EdgesIn[i] > n-x*fi || g.EdgesIn[i+1] > min(x*fi3, n) {
			return false
		}
		fi, fi2, fi3 = fi2, fi2+fi3, fi2+2*fi3
	}
	return true
}

// oddRoundMessagesHold is the count in Theorem 1's proof: a message of odd
// round i travels at least F_i edges, and no two share an edge, so at most
// n/F_i messages are alive in round i: Born[i] counts every message that
// entered it.
func (sp *spec) oddRoundMessagesHold(s *State) bool {
	for i := 1; i < len(s.Ghost.Born); i += 2 {
		if s.Ghost.Born[i]*fib(i) > sp.p.N {
			return false
		}
	}
	return true
}
