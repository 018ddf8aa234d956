package franklin

import (
	"slices"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// termination is the measure of the seed's termination argument (002
// §5.5.1: an active process stays active only if its id is greater than
// those of its nearest active neighbours on both sides, else it turns
// passive and relays; the announcement goes once round the ring), as a
// lexicographic tuple that every step decreases. The seed counts stages,
// which the state does not record (package doc: no stage counter), so the
// measure charges each ⟨id⟩ instead with the ids that can beat it:
//
//  1. the processes asleep (start, or a first message, wakes one);
//  2. Σ over the ⟨id v⟩ in transit and the ids in the heard entries of
//     1 + the number of ids greater than v. Taking an ⟨id⟩ into heard or
//     relaying it leaves the sum alone; deciding a stage clears both
//     heard entries: a process that turns passive or is elected sends no
//     ⟨id⟩, and one that stays active heard two smaller ids, each weighing
//     at least one more than its own, which it sends twice, so the sum
//     drops by at least 2;
//  3. the processes that do not know the outcome (an announcement heard);
//  4. Σ over the ⟨id⟩ in transit of 1 + d, d the hops from the process
//     that will receive it to the first process, from there on in the
//     message's direction, that is neither passive nor elected (one that
//     takes it: a passive relay lowers d by one; an active or asleep
//     process removes it);
//  5. the announcements in transit (the winner drops its own).
//
// A status change moves d (a process turning passive lengthens the relay
// chain behind it), but only in a step that lowers component 1 or 2. If
// every process relayed, an ⟨id⟩ would circle for ever; d is then n, and
// the first relay breaks the measure, which mc would report.
func (sp *spec) termination() *model.Termination[State] {
	n, net := sp.params.N, sp.net.Net
	ids := slices.Sorted(slices.Values(sp.params.IDs))
	// above[v] is 1 + the number of ids greater than v, for every id v.
	above := make([]int, ids[n-1]+1)
	for k, id := range ids {
		above[id] = n - k
	}
	return &model.Termination[State]{
		Ref: Ref + " (an active process stays active only if its id beats both active neighbours'; passive processes relay)",
		Doc: "(asleep, Σ over ⟨id v⟩ in transit and heard v of 1 + ids above v, not knowing, Σ ⟨id⟩ hops to the next non-relaying process, announcements)",
		Value: func(buf []int, s *State) []int {
			asleep, weight, unknowing, hops, announces := 0, 0, 0, 0, 0
			for i := range n {
				p := &s.P[i]
				if p.Status == Asleep {
					asleep++
				}
				for _, v := range p.Heard {
					if v != 0 {
						weight += above[v]
					}
				}
				if !s.Out.Knows(i) {
					unknowing++
				}
				for _, port := range []ring.Port{ring.Left, ring.Right} {
					d := -1 // counted on the first ⟨id⟩ of this channel
					for _, m := range s.Chans.Inbox(net, i, port).Messages() {
						if m.Kind == Leader {
							announces++
							continue
						}
						if d < 0 {
							d = relays(s, i, biring.Heading(port))
						}
						weight += above[m.ID]
						hops += 1 + d
					}
				}
			}
			return append(buf, asleep, weight, unknowing, hops, announces)
		},
	}
}

// relays is the number of processes, from i on in direction dir, that
// would relay an ⟨id⟩ before one that takes it, or n if all would.
func relays(s *State, i, dir int) int {
	n := len(s.P)
	for k := range n {
		if st := s.P[biring.Ahead(n, i, dir, k)].Status; st != Passive && st != Won {
			return k
		}
	}
	return n
}
