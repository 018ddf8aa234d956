package hp

import "github.com/ringcheck/mc/model"

// termination is the measure of 003's termination argument (Correctness:
// every message of a round is destroyed or promoted at the next sender of
// its round, or earlier by witness or distance, and rounds are bounded,
// bounds.go), as a lexicographic tuple that every step decreases:
//
//  1. the processes not started (start makes one a sender);
//  2. Σ over the election messages in transit of R + 1 − rnd, R the round
//     bound (a promotion raises rnd by one; a destroyed or returning
//     message leaves);
//  3. Σ over the election messages of the hops from the process that will
//     receive it to the first process, from there on, that will not
//     forward it: one not started, one of its round, its witness, or the
//     one where its distance counter runs out (a forward changes no
//     process and lowers the counter with the hop, so this drops by one);
//  4. the processes that do not know the outcome (an announcement heard);
//  5. the announcements in transit (the leader drops its own).
//
// A message that no process stops circles the ring (variant
// witness-literal): its hops are then n, and the first forward breaks the
// measure, which mc reports before deciding liveness on the graph.
func (sp *spec) termination() *model.Termination[State] {
	n, bound := sp.p.N, sp.roundBound()
	return &model.Termination[State]{
		Ref: Ref + " Correctness (every message meets the next sender of its round; rounds are bounded)",
		Doc: "(not started, Σ rounds left, Σ hops to the process that stops each message, not knowing, announcements)",
		Value: func(buf []int, s *State) []int {
			unstarted, rounds, hops, unknowing, announces := 0, 0, 0, 0, 0
			for i := 0; i < n; i++ {
				if !s.Started[i] {
					unstarted++
				}
				if !s.Out.Knows(i) {
					unknowing++
				}
				for _, m := range s.In[i].Messages() {
					if m.Kind == Announce {
						announces++
						continue
					}
					rounds += max(bound+1-m.Rnd, 0)
					hops += sp.hopsToStop(s, i, m)
				}
			}
			return append(buf, unstarted, rounds, hops, unknowing, announces)
		},
	}
}

// hopsToStop is the number of processes, from i on, that would forward m
// before one that does not (recv's cases), or n if none would stop it.
func (sp *spec) hopsToStop(s *State, i int, m Msg) int {
	n := sp.p.N
	for k := 0; k < n; k++ {
		j := (i + k) % n
		rnd, label := s.Rnd[j], s.Label[j]
		switch {
		case !s.Started[j], m.Rnd == rnd,
			sp.witness(m.Rnd) && m.Rnd == rnd+1 && m.ID < label,
			sp.distance(m.Rnd) && m.Counter-k == 1:
			return k
		}
	}
	return n
}
