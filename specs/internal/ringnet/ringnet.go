// Package ringnet is the channel plumbing of the election specs whose
// processes keep their own state types on a unidirectional ring (dkr, hp):
// one FIFO channel into each process from its predecessor.
package ringnet

import (
	"fmt"

	"mc/model"
	"mc/ring"
	"mc/specs/internal/election"
	"mc/specs/internal/outcome"
)

// Chans holds the channels of a ring: Chans[i] carries the messages from
// process i-1 (mod n) to process i.
type Chans[M ring.Message[M]] []ring.Chan[M]

// Make returns the empty channels of a ring of n.
func Make[M ring.Message[M]](n int) Chans[M] { return make(Chans[M], n) }

// SendFrom puts m on process i's outgoing channel, to its successor. It
// returns false, changing nothing, when a bounded channel is full.
func (c Chans[M]) SendFrom(l model.ChanSemantics, i int, m M) bool {
	return c[(i+1)%len(c)].Send(l, m)
}

// Quiet holds when no message is in transit.
func (c Chans[M]) Quiet() bool {
	for i := range c {
		if c[i].Len() > 0 {
			return false
		}
	}
	return true
}

// CopyFrom makes c a copy of src, reusing c's storage; c must have src's
// length.
func (c Chans[M]) CopyFrom(src Chans[M]) {
	for i := range src {
		c[i].CopyFrom(&src[i])
	}
}

// AppendTo writes every channel's canonical encoding.
func (c Chans[M]) AppendTo(buf []byte) []byte {
	for i := range c {
		buf = c[i].AppendTo(buf)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote, using read for each message.
func (c Chans[M]) DecodeFrom(d *model.Decoder, read func(d *model.Decoder) M) {
	for i := range c {
		c[i].DecodeFrom(d, read)
	}
}

// Var renders channel i for traces as "p2.in".
func (c Chans[M]) Var(i int) model.Var {
	return model.Var{Name: fmt.Sprintf("p%d.in", i), Value: c[i].String()}
}

// Params validates p for a spec on FIFO channels and resolves its variant
// against vs. It refuses reordering channels: the spec's seed relies on
// FIFO order, for the reason why.
func Params(spec string, vs []model.Variant, p model.Params, why string) (model.Params, error) {
	if err := p.Validate(); err != nil {
		return p, err
	}
	variant, err := model.PickVariant(spec, vs, p.Variant)
	if err != nil {
		return p, err
	}
	if p.Chan != model.FIFO {
		return p, fmt.Errorf("spec %s needs FIFO channels (%s); --chan %s is not supported", spec, why, p.Chan)
	}
	p.Variant = variant
	return p, nil
}

// Links gives each of the n channels of a ring the semantics l: the
// model.System.Chans of a spec whose footprints (Footprint) number channel
// j for In[j], process j's input channel.
func Links(n int, l model.ChanSemantics) []model.ChanSemantics {
	out := make([]model.ChanSemantics, n)
	for j := range out {
		out[j] = l
	}
	return out
}

// Footprint is what every rule of the specs on this ring touches at
// process i (model.Footprint): i's own variables, its input channel In[i],
// from which it receives, and In[i+1], to which it sends; with claims on,
// the ghost. A rule that only waits on In[i], like dkr's and hp's start (a
// non-initiator starts when a message reaches it), lists it too: it is
// enabled by a waiting message, and if it is enabled with In[i] empty (an
// initiator) a message arriving there changes nothing it does.
func Footprint(n int, claims bool) func(i int) model.Footprint {
	return func(i int) model.Footprint {
		return model.Footprint{Proc: i, Recv: []int{i}, Send: []int{(i + 1) % n}, Ghost: claims}
	}
}

// View pictures a state of an election spec on a unidirectional ring for
// mc's drawings and sweeps: each process with its id and decision (o), and
// channel i as the link from i's predecessor to i, named as in traces.
func View[M ring.Message[M]](ids []int, o *outcome.Outcome, c Chans[M]) model.View {
	links := make([]model.LinkView, len(c))
	for i := range c {
		msgs := make([]string, 0, c[i].Len())
		for _, m := range c[i].Messages() {
			msgs = append(msgs, m.String())
		}
		links[i] = model.LinkView{From: (i + len(c) - 1) % len(c), To: i, Name: fmt.Sprintf("p%d.in", i), Msgs: msgs}
	}
	return model.View{Procs: election.ProcViews(ids, o), Links: links}
}
