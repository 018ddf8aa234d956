package suzukikasami

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// Footprints for partial-order reduction (model.Footprint). Channel j is
// In[j], process j's input channel. Every rule of process i touches i's
// own variables and may send to every other process (ask broadcasts, the
// postlude sends the token to whichever process it finds); recv also takes
// from In[i]; with claims on, a send writes the receiver's entry cost in
// the ghost. The network is fully connected and its channels bags by
// default, so little is independent: a bag's receiver waits for all its
// senders, here every other process.
func (sp *spec) footprint(recv bool) func(i int) model.Footprint {
	return func(i int) model.Footprint {
		f := model.Footprint{Proc: i, Ghost: sp.claims}
		for j := 0; j < sp.n; j++ {
			if j != i {
				f.Send = append(f.Send, j)
			}
		}
		if recv {
			f.Recv = []int{i}
		}
		return f
	}
}

// appendPresent is what the token invariants read: per process whether
// the token is present (its own variable), and how many tokens are in
// transit (a sum over the messages: model.Property.Reads).
func appendPresent(buf []byte, s *State) []byte {
	for _, p := range s.Present {
		buf = model.AppendBool(buf, p)
	}
	return model.AppendUint(buf, uint64(tokensInTransit(s)))
}

// appendEntry is what entry-cost reads: who is in its critical section,
// who holds the token, and the ghost costs.
func appendEntry(buf []byte, s *State) []byte {
	buf = s.Phase.AppendInCS(buf)
	for _, p := range s.Present {
		buf = model.AppendBool(buf, p)
	}
	return model.AppendInts(buf, s.Ghost.Cost)
}

// chans gives the semantics of the n input channels, one per process
// (In), which every process sends to directly.
func (sp *spec) chans() []model.ChanSemantics {
	return slices.Repeat([]model.ChanSemantics{sp.sem}, sp.n)
}

func chanLen(s *State, c int) int { return s.In[c].Len() }
