package vitanyi

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// termination is the measure of 001 §2's argument (a processor wakes once;
// k only falls, "a lower numbered message overtaking a higher numbered
// message annihilates it"; a timer counts down to its send; the lowest M
// and then the sleepwell go once round; and "all such delays are finite",
// §1, which the drift rules make a bound), as a lexicographic tuple that
// every step decreases:
//
//  1. Σ over the processors of a level: n + 2 asleep, 2 + the number of
//     ids below k awake, 1 announced, 0 finished or slept. Waking, reading
//     a lower M_j (k ← j), getting one's own M back and reading the
//     sleepwell (awake or announced) each lower it; nothing raises it.
//  2. Σ of the timers: with the levels unchanged a timer is never reset,
//     and a countdown (a tick, or a higher M read) lowers one by one,
//     whatever it sends.
//  3. the messages in transit: every other receipt (a wakeup read while
//     awake, a higher M read with the timer at 0, what the announced
//     processor ignores) takes one and sends none.
//
// Every other action is a tick that moves only the drift counters (bounded
// drift, K ≥ 1; with unbounded drift every tick counts down). For these the
// measure names a witness x: the first running processor that has a
// message waiting or a timer running. Such ticks change no phase, timer or
// link, so x stays the witness; a tick of x that counts nothing down
// passes over its waiting message, which it must read within K of its
// ticks, and nobody can tick more than K times while x does not (rules 2
// and 1 of the package doc). So:
//
//  4. K − Passed[x]: x's tick passes over its message, Passed[x] + 1;
//  5. Σ over the other running processors q of K − Ahead[q][x]: q's tick
//     adds 1 to Ahead[q][x] and leaves Passed[x] alone.
//
// Both are 0 when there is no witness, and there the argument stops: two
// running processors with nothing to read and no timer running could tick
// in turn for ever, moving only their counters. The checker finds no
// reachable state like that (an awake processor has sent a wakeup and
// holds M_k, or has sent it; the announced one waits for its sleepwell,
// which is in transit), as every transition decreases the measure; if one
// were reached, the tick out of it would be reported as breaking the
// measure.
func (sp *spec) termination() *model.Termination[State] {
	n, drift := sp.n, sp.drift
	// below[id] is the number of ids in the ring below id.
	below := make([]int, len(sp.hold))
	for r, id := range slices.Sorted(slices.Values(sp.ids)) {
		below[id] = r
	}
	return &model.Termination[State]{
		Ref: Ref + " (k only falls, timers count down, the lowest M and the sleepwell go round once; §1: delays are finite)",
		Doc: "(Σ levels: asleep, awake by k, announced; Σ timers; messages; the witness's K − Passed; Σ others' K − Ahead on it)",
		Value: func(buf []int, s *State) []int {
			levels, timers, messages := 0, 0, 0
			witness := -1
			for i := 0; i < n; i++ {
				switch s.Phase[i] {
				case Asleep:
					levels += n + 2
				case Awake:
					levels += 2 + below[s.K[i]]
				case Announced:
					levels++
				}
				timers += s.Timer[i]
				messages += s.In[i].Len()
				if witness < 0 && running(s, i) && (s.In[i].Len() > 0 || s.Phase[i] == Awake && s.Timer[i] > 0) {
					witness = i
				}
			}
			passed, ahead := 0, 0
			if drift > 0 && witness >= 0 {
				passed = drift - s.Passed[witness]
				for q := 0; q < n; q++ {
					if q != witness && running(s, q) {
						ahead += drift - int(s.Ahead[q*n+witness])
					}
				}
			}
			return append(buf, levels, timers, messages, passed, ahead)
		},
	}
}
