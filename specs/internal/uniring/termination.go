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

// weights are the messages' weights in the measure, by the channel that
// holds a message, its kind and its id: the measure is evaluated on every
// transition, so the hops are counted once, here.
type weights struct {
	// w[i*stride + kind*half + id] is the weight of a message of that
	// kind and id on In[i]; half is one more than the largest id.
	w            []int32
	stride, half int
}

func (n *Net) messageWeights() *weights {
	size, half := n.Ring.N, slices.Max(n.IDs)+1
	w := &weights{w: make([]int32, size*2*half), stride: 2 * half, half: half}
	for k, id := range n.IDs {
		for i := 0; i < size; i++ {
			d := (k - i + size) % size
			w.w[i*w.stride+int(Elect)*half+id] = int32(d + size + 2)
			w.w[i*w.stride+int(Done)*half+id] = int32(d + 1)
		}
	}
	return w
}

// of is the weight of m on In[i].
func (w *weights) of(i int, m Msg) int { return int(w.w[i*w.stride+int(m.Kind)*w.half+m.ID]) }
