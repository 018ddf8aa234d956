package hp

import (
	"fmt"

	"mc/invariants"
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
// 2, ELECT's 1). For the variants other than basic, the winner is that of a
// reference run (model.System.FirstRun), and leader-is-winner checks that
// every other run agrees.
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

// winner is the process that every run must elect, with the property that
// says so; run performs the reference run (for the variants but basic).
func (sp *spec) winner(run func() (State, bool)) invariants.Winner {
	w := invariants.Winner{Name: "leader-is-winner"}
	if sp.p.Variant == "basic" {
		label, sender := basicSurvivor(sp.p.IDs)
		w.Proc, w.Ref = sender, Ref+" BASIC (see winner.go)"
		w.Doc = fmt.Sprintf("only p%d (id %d), which promotes label %d, the survivor of BASIC's rounds, is ever leader", sender, sp.p.IDs[sender], label)
	} else {
		w.Proc, w.Ref = -1, Ref+" (the winner depends on the arrangement only; see winner.go)"
		if end, terminal := run(); terminal {
			for p, d := range end.Out.Decided {
				if d == invariants.Leader {
					w.Proc = p
				}
			}
		}
		w.Doc = "no process but the leader of a reference run is ever leader"
		if w.Proc >= 0 {
			w.Doc = fmt.Sprintf("only p%d (id %d), the leader of a reference run, is ever leader", w.Proc, sp.p.IDs[w.Proc])
		}
	}
	if w.Proc >= 0 {
		w.ID = sp.p.IDs[w.Proc]
	}
	return w
}
