package uniring

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// Termination is the termination measure shared by the two unidirectional
// elections (Chang–Roberts, 002 §5.2; LeLann, 004), after their termination
// argument: a process originates its ⟨elect⟩ once, when it sets its flag;
// an ⟨elect j⟩ travels at most once round the ring, towards j's origin,
// before it is swallowed or comes back and becomes ⟨done j⟩; a ⟨done j⟩
// travels on to j's origin, where it is dropped. The measure is the pair
// (processes whose flag is not set, Σ over the messages in transit of their
// weight), in lexicographic order, where a message on In[i] whose id
// originates at k, d = (k − i) mod n hops ahead, weighs d + n + 2 if it is
// ⟨elect⟩ (d hops, then a ⟨done⟩ of weight at most n) and d + 1 if it is
// ⟨done⟩. Every step sets a flag (start; a receipt that makes i a
// participant or wakes it up) or, with the flags unchanged, lowers the
// sum: forwarding a message lowers its weight by one, swallowing or
// dropping it removes it, and ⟨elect id(i)⟩ coming back (weight n + 2) is
// replaced by ⟨done id(i)⟩ on In[i+1] (weight n). It does not hold for the
// raynal-literal variant of Chang–Roberts, where a participant answers a
// smaller id with its own without setting anything.
func (n *Net) Termination(ref string) *model.Termination[State] {
	w := n.messageWeights()
	return &model.Termination[State]{
		Ref: ref,
		Doc: "(processes not yet flagged, Σ of the messages' remaining hops: ⟨elect⟩ d + n + 2, ⟨done⟩ d + 1)",
		Value: func(buf []int, s *State) []int {
			return append(buf, s.unflagged(), s.sumWeights(w))
		},
	}
}

// weights give the messages' weights in the measure from the position
// at which each id originates: a table by id alone, so that its size does
// not grow with the ring times the ids (a table by channel, kind and id,
// built in one piece per run, passed simulate's memory limit before the
// limit could act: docs/limits.md).
type weights struct {
	// origin[id] is the process at which id originates.
	origin []int32
	// n is the ring's size.
	n int
}

func (n *Net) messageWeights() *weights {
	w := &weights{origin: make([]int32, slices.Max(n.IDs)+1), n: n.Ring.N}
	for k, id := range n.IDs {
		w.origin[id] = int32(k)
	}
	return w
}

// of is the weight of m on In[i]: d + n + 2 for ⟨elect⟩, d + 1 for
// ⟨done⟩, d the hops from i on to m's origin.
func (w *weights) of(i int, m Msg) int {
	d := int(w.origin[m.ID]) - i
	if d < 0 {
		d += w.n
	}
	if m.Kind == Elect {
		return d + w.n + 2
	}
	return d + 1
}
