package hp

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// The distance lemmas of 003 "Complexity" and Theorem 1's total.
//
// host_i(a) is the node that promoted the message with label a to round i
// (for round 0, the node whose id a is), destroyer_i(a) the node that
// destroyed it in round i, and δ(x, y) the distance from x to y in the
// ring's direction. Both lemmas compare the node where a message of odd
// round i stops (promoted to round i+1, or destroyed) with its host in
// round i, and that is what its Hops ghost measures: a message leaves its
// host with Hops = 1 and each forward adds one, so the node that receives
// it is Hops edges past host_i(a), and δ(host_i(a), receiver) = Hops mod n
// (Hops ≤ n: round-within-one-turn). So no ghost of past positions is
// needed: each lemma is a step property, checked on the step in which the
// message stops, at the node that is host_{i+1}(a) or destroyer_i(a).

// delta is δ(host, receiver) for a message that has travelled hops edges
// from its host.
func (sp *spec) delta(hops int) int { return hops % sp.p.N }

// stopped returns the election message that step a received, and whether
// it promoted that message to the next round and whether it destroyed it
// (the per-round ghosts Born and Destroyed grew in its round's bucket).
func (sp *spec) stopped(before *State, a model.Action, after *State) (m Msg, promoted, destroyed bool) {
	if a.Rule != recvRule {
		return Msg{}, false, false // a start, which receives nothing
	}
	m = before.In[a.Proc].Peek(sp.net.Sem, a.Choice)
	if m.Kind != Elect {
		return m, false, false
	}
	g, h := &before.Ghost, &after.Ghost
	next, this := min(m.Rnd+1, len(g.Born)-1), min(m.Rnd, len(g.Destroyed)-1)
	return m, h.Born[next] > g.Born[next], h.Destroyed[this] > g.Destroyed[this]
}

// lemma1Holds is 003 Lemma 1 on step a: if it promoted a message of odd
// round i to round i+1, the promoting node, host_{i+1}(a), is at least
// F_{i+1} edges past host_i(a).
func (sp *spec) lemma1Holds(before *State, a model.Action, after *State) bool {
	m, promoted, _ := sp.stopped(before, a, after)
	return !promoted || m.Rnd%2 == 0 || sp.delta(m.Hops) >= fib(m.Rnd+1)
}

// lemma2Holds is 003 Lemma 2 on step a: if it destroyed a message of odd
// round i, the destroying node is at least F_i edges past host_i(a).
func (sp *spec) lemma2Holds(before *State, a model.Action, after *State) bool {
	m, _, destroyed := sp.stopped(before, a, after)
	return !destroyed || m.Rnd%2 == 0 || sp.delta(m.Hops) >= fib(m.Rnd)
}

// lemmaProps are 003 Lemmas 1 and 2 (variants elect and elect-literal).
func (sp *spec) lemmaProps() []model.Property[State] {
	return []model.Property[State]{
		model.StepProp("lemma-1-host-distance", Ref+" Complexity, Lemma 1 (i odd: δ(host_i(a), host_{i+1}(a)) ≥ F_{i+1})",
			"a message promoted out of an odd round i is promoted at least F_{i+1} edges past the node that promoted it to round i",
			sp.lemma1Holds).
			WhenStep("no message was promoted out of an odd round", func(before *State, a model.Action, after *State) bool {
				m, promoted, _ := sp.stopped(before, a, after)
				return promoted && m.Rnd%2 == 1
			}),
		model.StepProp("lemma-2-destroyer-distance", Ref+" Complexity, Lemma 2 (i odd: δ(host_i(a), destroyer_i(a)) ≥ F_i)",
			"a message destroyed in an odd round i is destroyed at least F_i edges past the node that promoted it to round i",
			sp.lemma2Holds).
			WhenStep("no message of an odd round was destroyed", func(before *State, a model.Action, after *State) bool {
				m, _, destroyed := sp.stopped(before, a, after)
				return destroyed && m.Rnd%2 == 1
			}),
	}
}

// Theorem 1's total. "Messages in ELECT traverse fewer than
// 1.271 n log n + O(n) edges in total" leaves the O(n) open: for one n any
// count is n log n plus some constant times n, so no run of one ring can
// contradict the theorem as stated. What a finite run can contradict is
// the total the proof gives with its own constants, before it rounds the
// sum to n log n: for each even round i and the odd round i+1, with x
// messages entering round i+1, at most n − x·F_i edges in round i
// (Lemma 3) and min(x·F_{i+3}, n) in round i+1, so at most
//
//	pair(i) = max over x of n − x·F_i + min(x·F_{i+3}, n)  ≤  2n − n·F_i/F_{i+3}
//
// for the pair; when round i+1 is never entered, x = 0 and round i alone
// traverses at most n. theorem-1-total checks that the edges of a run,
// all rounds together, are at most the sum of these over the even rounds
// it has reached. Summed up to the round bound R (bounds.go, R ≤ F⁻¹(n))
// this is a function of n alone, the finite form of the theorem: a run
// that keeps the check keeps that too, since round-bound keeps its rounds
// within R. The per-pair inequality (theorem-1-round-pairs) implies the
// total; the total is checked on its own because it is what the theorem
// states.

// pairEdges is pair(i), the most edges the proof of Theorem 1 allows in
// the even round i and the odd round i+1 together (x ≤ n/F_i: round i
// cannot traverse fewer than 0 edges).
func pairEdges(n, i int) int {
	fi, fi3 := fib(i), fib(i+3)
	most := 0
	for x := 0; x*fi <= n && x <= n; x++ {
		most = max(most, n-x*fi+min(x*fi3, n))
	}
	return most
}

// totalEdges[top] is the most edges the proof of Theorem 1 allows in a run
// whose rounds reach top: pair(i) for each even round i < top, and n for
// round top if it is even.
func totalEdges(n, maxRound int) []int {
	totals := make([]int, maxRound+1)
	for top := range totals {
		for i := 0; i <= top; i += 2 {
			if i+1 <= top {
				totals[top] += pairEdges(n, i)
			} else {
				totals[top] += n
			}
		}
	}
	return totals
}

// lastRoundEntered is the last round a message entered (ghost Born: the
// claims read no node's variables), -1 before any.
func lastRoundEntered(s *State) int {
	top := -1
	for r, b := range s.Ghost.Born {
		if b > 0 {
			top = r
		}
	}
	return top
}

// totalProp is theorem-1-total (variants elect and elect-literal).
func (sp *spec) totalProp() model.Property[State] {
	totals := totalEdges(sp.p.N, sp.maxRound)
	return model.InvariantProp("theorem-1-total", Ref+" Theorem 1 (total edges, with the proof's constants)",
		fmt.Sprintf("the election's edges, all rounds together, are at most Σ over the even rounds i reached of max_x n − x·F_i + min(x·F_{i+3}, n) (%d for n = %d within the round bound)", totals[sp.maxRound], sp.p.N),
		func(s *State) bool {
			top := min(lastRoundEntered(s), len(totals)-1)
			return top < 0 || s.Ghost.Edges <= totals[top]
		}).When("no election message was sent", func(s *State) bool { return s.Ghost.Edges > 0 })
}
