package hp

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
)

// Which process wins.
//
// HP elects neither the maximum nor, in general, the minimum id. The seed
// states no winner; mc finds it. The leader is the node whose message came
// back unchanged: the node that last promoted the surviving label, which
// is not the label's owner in general. The surviving label is found by
// BASIC's rounds: round 0 is even and in even rounds the larger of two
// neighbouring labels is destroyed, so the maximum id never survives round
// 0 (n ≥ 2); in odd rounds the smaller is destroyed, so the minimum wins
// only when it is the one label to survive round 0.
//
// basicSurvivor computes BASIC's outcome sequentially, with no channels or
// schedules: the labels alive in a round, in ring order, each with its
// sender; in an even round a label survives when it is smaller than the
// next label, in an odd round when it is larger, and a survivor's sender in
// the next round is the sender of the label it was compared with (the node
// that promoted it). When one label is left, its sender is the leader.
//
// Every variant's winner depends on the arrangement only, not on the
// schedule (Kahn's argument, bounds.go). Promotion by witness changes only
// where a label is promoted, so variant witness elects BASIC's label, at a
// node that may differ from BASIC's leader (winner-label-is-basic).
// Promotion by distance can save a label that BASIC destroys, so variants
// distance and elect may elect another label (ids 1,4,3,2,5: BASIC's label
// 2, ELECT's 1). For the variants other than basic, roundByRound computes
// the winner sequentially from the ids, with its own copy of the seed's
// rules and always BASIC's comparison, and leader-is-winner checks that
// every run of the model agrees: a model whose comparison or rule order
// differs from the seed's is caught, not just one whose outcome depends on
// the schedule.
func basicSurvivor(ids []int) (label, sender int) {
	type alive struct{ label, sender int }
	cur := make([]alive, len(ids))
	for i, id := range ids {
		cur[i] = alive{id, i}
	}
	for rnd := 0; len(cur) > 1; rnd++ {
		var next []alive
		for k, a := range cur {
			b := cur[(k+1)%len(cur)]
			if !basicDestroys(rnd, a.label, b.label) {
				next = append(next, alive{a.label, b.sender})
			}
		}
		cur = next
	}
	return cur[0].label, cur[0].sender
}

// roundByRound runs the nodes of variant imp on ids sequentially, always
// delivering the waiting message of the lowest round (the node with the
// lowest index first among equals): one schedule of the distributed
// algorithm, and so, by Kahn's argument, the outcome of every schedule.
// Each node keeps the seed's node.rnd and node.id and applies the seed's
// rules in the order the variant reads them. It returns the leader and its
// label, or ok = false if no one is elected within maxSteps deliveries
// (witness-literal's messages can circle for ever).
func roundByRound(ids []int, imp improvements, maxSteps int) (proc, label int, ok bool) {
	type msg struct{ rnd, id, counter int }
	n := len(ids)
	rnd, lab := make([]int, n), make([]int, n)
	queue := make([][]msg, n)
	send := func(i int, m msg) { queue[(i+1)%n] = append(queue[(i+1)%n], m) }
	promote := func(i, r, id int) {
		m := msg{rnd: r, id: id}
		if imp.distance(r) {
			m.counter = fib(r + 2)
		}
		send(i, m)
	}
	host := func(i, r, id int) { rnd[i], lab[i] = r, id; promote(i, r, id) }
	for i, id := range ids {
		host(i, 0, id)
	}
	for range maxSteps {
		j := -1
		for i := range queue {
			if len(queue[i]) > 0 && (j < 0 || queue[i][0].rnd < queue[j][0].rnd) {
				j = i
			}
		}
		if j < 0 {
			return -1, 0, false
		}
		m := queue[j][0]
		queue[j] = queue[j][1:]
		outOfCounter := imp.distance(m.rnd) && m.counter == 1
		switch {
		case imp.counterFirst && outOfCounter:
			host(j, m.rnd+1, m.id)
		case m.rnd == rnd[j] && m.id == lab[j]:
			return j, lab[j], true
		case m.rnd == rnd[j]:
			if !basicDestroys(m.rnd, m.id, lab[j]) {
				host(j, m.rnd+1, m.id)
			}
		case imp.witness(m.rnd) && m.rnd == rnd[j]+1 && m.id < lab[j]:
			if imp.witnessSends {
				host(j, m.rnd+1, m.id)
			} else {
				promote(j, m.rnd+1, m.id)
			}
		case outOfCounter:
			host(j, m.rnd+1, m.id)
		default:
			if imp.distance(m.rnd) {
				m.counter--
			}
			send(j, m)
		}
	}
	return -1, 0, false
}

// winner is the process that every run must elect, with the property that
// says so.
func (sp *spec) winner() invariants.Winner {
	w := invariants.Winner{Name: "leader-is-winner"}
	if sp.p.Variant == "basic" {
		label, sender := basicSurvivor(sp.p.IDs)
		w.Proc, w.Ref = sender, Ref+" BASIC (see winner.go)"
		w.Doc = fmt.Sprintf("only p%d (id %d), which promotes label %d, the survivor of BASIC's rounds, is ever leader", sender, sp.p.IDs[sender], label)
	} else {
		w.Proc, w.Ref = -1, Ref+" (the winner depends on the arrangement only; see winner.go)"
		w.Doc = "no process is ever leader: run round by round, no one is elected"
		if proc, label, ok := roundByRound(sp.p.IDs, sp.improvements, sp.edgeCap()); ok {
			w.Proc = proc
			w.Doc = fmt.Sprintf("only p%d (id %d), which promotes label %d when the seed's rules are run round by round, is ever leader", proc, sp.p.IDs[proc], label)
		}
	}
	if w.Proc >= 0 {
		w.ID = sp.p.IDs[w.Proc]
	}
	return w
}
