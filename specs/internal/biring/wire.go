package biring

import (
	"fmt"

	"mc/model"
	"mc/ring"
)

// Wire is the part of a spec's state that biring keeps: the 2n channels of
// a ring of n (In[2i+port] arrives at i through port) and the ghost.
type Wire[M ring.Message[M]] struct {
	In    []ring.Chan[M]
	Ghost Ghost
}

// NewWire returns the empty channels and history of a ring of n.
func NewWire[M ring.Message[M]](n int) Wire[M] {
	return Wire[M]{In: make([]ring.Chan[M], 2*n), Ghost: NewGhost(n)}
}

// Quiet holds when no message is in transit.
func (w *Wire[M]) Quiet() bool {
	for i := range w.In {
		if w.In[i].Len() > 0 {
			return false
		}
	}
	return true
}

// CopyFrom makes w a copy of o, reusing w's storage.
func (w *Wire[M]) CopyFrom(o *Wire[M]) {
	if len(w.In) != len(o.In) {
		w.In = make([]ring.Chan[M], len(o.In))
	}
	for i := range o.In {
		w.In[i].CopyFrom(&o.In[i])
	}
	w.Ghost.CopyFrom(&o.Ghost)
}

// AppendTo writes every channel's canonical encoding, process by process,
// Left then Right, then the ghost's.
func (w *Wire[M]) AppendTo(buf []byte) []byte {
	for i := range w.In {
		buf = w.In[i].AppendTo(buf)
	}
	return w.Ghost.AppendTo(buf)
}

// DecodeFrom reads what AppendTo wrote, using read for each message.
func (w *Wire[M]) DecodeFrom(d *model.Decoder, read func(d *model.Decoder) M) {
	for i := range w.In {
		w.In[i].DecodeFrom(d, read)
	}
	w.Ghost.DecodeFrom(d)
}

// Vars appends "p2.in.left" and "p2.in.right" for process i.
func (w *Wire[M]) Vars(out []model.Var, i int) []model.Var {
	for _, port := range []ring.Port{ring.Left, ring.Right} {
		out = append(out, model.Var{Name: fmt.Sprintf("p%d.in.%s", i, port), Value: w.In[2*i+int(port)].String()})
	}
	return out
}
