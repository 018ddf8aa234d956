package vlt

import (
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
)

// termination is the measure of 000 §3's termination argument (every
// message of a phase lower than the receiver's PNUM is discarded, "the
// phase-number (PNUM) of observant processors continues to be … increased",
// and Prop. 3.9 bounds the phases by T, the largest T with F_T ≤ N;
// Prop. 4.2 for the modified version), as a lexicographic tuple that every
// step decreases:
//
//  1. Σ over the processors still in phase 0 of 1 + the phase-0 steps left
//     (⟨u,0⟩ not sent, each neighbour's ⟨u,0⟩ not received): send0 and
//     recv0 lower it by one, test0 by the last one, whatever it sends;
//  2. Σ over the processors of T − PNUM: a relay raises PNUM to the
//     message's phase, above PNUM; turning active (d-active, c-active, or
//     after §4's rule (ii)) raises it to p + 1 for a phase p ≥ PNUM; no
//     step lowers it (2b discards what is below PNUM, an inauguration sets
//     PNUM := p ≥ PNUM);
//  3. the phase messages in transit: a receipt that raises no PNUM takes
//     every phase message it reads and sends none (it discards or stops
//     them, discards one by §4's rule (i), or inaugurates);
//  4. the processors that do not know the outcome: an inauguration, an
//     announcement heard by one that does not know it yet;
//  5. the announcements in transit: one that knows the outcome drops
//     what it hears.
//
// A relay or activation past phase T (Prop. 3.9 allows phases up to
// T − 1) would count 0 in (2) before and after, and mc would report the
// measure broken on it; so it would on a run that went on for ever. The
// tests find it holding on both variants on both kinds of link (variant e
// on full-duplex links elects two leaders, but every run ends).
func (sp *spec) termination() *model.Termination[State] {
	phases := MaxPhases(sp.n)
	return &model.Termination[State]{
		Ref: Ref + " (§3: lower phases are discarded, PNUM only increases; Prop. 3.9 and 4.2: at most T phases, F_T ≤ N)",
		Doc: "(phase-0 steps left, Σ phases left T − PNUM, phase messages, not knowing, announcements)",
		Value: func(buf []int, s *State) []int {
			phase0, left, chases, unknowing, announces := 0, 0, 0, 0, 0
			for i := range s.Proc {
				p := &s.Proc[i]
				if p.Stage == Phase0 {
					phase0 += 1 + boolInt(!p.Sent0) + boolInt(p.Got0[0] == 0) + boolInt(p.Got0[1] == 0)
				}
				left += max(phases-p.PNUM, 0)
				if p.Decided == invariants.Undecided {
					unknowing++
				}
			}
			for i := range s.Chans {
				for _, m := range s.Chans[i].Messages() {
					if m.Kind == Announce {
						announces++
					} else {
						chases++
					}
				}
			}
			return append(buf, phase0, left, chases, unknowing, announces)
		},
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
