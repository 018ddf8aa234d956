package dkr

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// termination is the measure of the seed's termination argument (002 §5.4:
// each stage at least halves the active processes and max only grows, a
// passive process only relays, and the announcement goes once round the
// ring), as a lexicographic tuple that every step decreases:
//
//  1. the processes asleep (start wakes one);
//  2. Σ over the active processes of 1 + the ids greater than their max
//     (staying active raises max; becoming passive drops the term);
//  3. the processes that do not know the outcome (Learn, and an
//     announcement heard);
//  4. Σ over the (1, ·) and (2, ·) messages in transit of (n + 1)·b + d,
//     where b is 2 for (1, ·) and 1 for (2, ·), and d the hops from the
//     process that will receive it to the first process, from there on,
//     that is not passive (a passive relay lowers d by one; an active
//     process turns (1, x) into (2, x), or into an announcement);
//  5. the announcements in transit (one that comes back is dropped).
//
// If every process were passive a message would circle for ever; d is then
// n, and the first relay breaks the measure, which mc would report.
func (sp *spec) termination() *model.Termination[State] {
	n := sp.p.N
	ids := slices.Sorted(slices.Values(sp.p.IDs))
	return &model.Termination[State]{
		Ref: Ref + " (each stage at least halves the active processes; passive processes relay)",
		Doc: "(asleep, Σ active 1 + ids above max, not knowing, Σ (1,·)/(2,·) weights, announcements)",
		Value: func(buf []int, s *State) []int {
			asleep, active, unknowing, weight, announces := 0, 0, 0, 0, 0
			for i := 0; i < n; i++ {
				switch s.Mode[i] {
				case Asleep:
					asleep++
				case Active:
					k, _ := slices.BinarySearch(ids, s.Max[i]+1)
					active += 1 + len(ids) - k
				}
				if !s.Out.Knows(i) {
					unknowing++
				}
			}
			for i := 0; i < n; i++ {
				d := 0
				for d < n && s.Mode[(i+d)%n] == Passive {
					d++
				}
				for _, m := range s.In[i].Messages() {
					switch m.Kind {
					case First:
						weight += 2*(n+1) + d
					case Second:
						weight += n + 1 + d
					default:
						announces++
					}
				}
			}
			return append(buf, asleep, active, unknowing, weight, announces)
		},
	}
}
