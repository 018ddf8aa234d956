package vitanyi

import (
	"github.com/ringcheck/mc/model"
)

// Footprints for partial-order reduction (model.Footprint). Channel j is
// In[j], processor j's input link.
//
// With unbounded drift every rule of processor i touches only i's own
// variables (phase, k, timer, Passed), In[i], from which recv takes, and
// In[i+1], to which it sends; with claims on, the ghost. A tick reads
// whether In[i] is empty, and counts in Passed a tick that passes a
// waiting message over, so a message arriving at an empty In[i] changes
// what a tick does: the two do not commute. Tick therefore lists In[i]
// among its send channels too (model.Footprint), which makes it dependent
// on every sender to In[i], as it is.
//
// With bounded drift (--drift K ≥ 1) every tick reads and writes the drift
// counters of every pair of running processors, and whether each other
// processor runs: shared variables that make every action dependent on
// every other, so each rule is marked Shared and the reduction stores
// every state (honestly, rather than not at all).
func (sp *spec) footprint(i int) model.Footprint {
	return model.Footprint{Proc: i, Recv: []int{i}, Send: []int{(i + 1) % sp.n}, Shared: sp.drift > 0, Ghost: sp.p.Claims}
}

// wakeFootprint is wake's: it reads no channel.
func (sp *spec) wakeFootprint(i int) model.Footprint {
	f := sp.footprint(i)
	f.Recv = nil
	return f
}

// tickFootprint is tick's: it reads whether In[i] is empty (above).
func (sp *spec) tickFootprint(i int) model.Footprint {
	f := sp.footprint(i)
	f.Send = append(f.Send, i)
	return f
}

// chans gives the channels' semantics for the footprints: FIFO and
// unbounded.
func (sp *spec) chans() []model.ChanSemantics { return sp.net.Semantics() }

// appendDecisions is what the election properties read: each processor's
// decision, a function of its phase.
func appendDecisions(buf []byte, s *State) []byte {
	for p := range s.Phase {
		buf = append(buf, byte(s.Decision(p)))
	}
	return buf
}

// appendHammer is what hammer-and-anvil reads: per processor whether it
// has announced and whether it holds M_l with its timer run out (functions
// of its own variables), and how many sleepwells and other messages are in
// transit (sums over the messages: model.Property.Reads).
func (sp *spec) appendHammer(buf []byte, s *State) []byte {
	lowest := sp.ids[sp.leader]
	sleepwells, others := 0, 0
	for p := range s.Phase {
		buf = model.AppendBool(buf, s.Phase[p] >= Announced)
		buf = model.AppendBool(buf, s.K[p] == lowest && s.Timer[p] == 0)
		for _, m := range s.In[p].Messages() {
			if m.Kind == Sleepwell {
				sleepwells++
			} else {
				others++
			}
		}
	}
	return model.AppendUint(model.AppendUint(buf, uint64(sleepwells)), uint64(others))
}

// appendGhost is what the count claims and the measures read.
func appendGhost(buf []byte, s *State) []byte {
	return model.AppendUint(model.AppendUint(buf, uint64(s.Ghost.Messages)), uint64(s.Ghost.Bits))
}
