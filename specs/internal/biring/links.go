// Package biring is what the election specs on a bidirectional ring with a
// common sense of orientation share (hs, franklin): full-duplex links, each
// made of one channel per direction, and the ghost history of phases and
// messages that their claims read.
//
// Orientation: process i's Right port (004's CW) leads to (i+1) mod n and
// its Left port (004's CCW) to (i−1) mod n, for every i. A message that i
// sends on its Right port therefore arrives at i+1 through i+1's Left port,
// and conversely. On a ring of two, the two links between the processes are
// still distinct: 0's Right link is 1's Left link, 0's Left link 1's Right.
//
// Channels: In[2i+port] holds the messages that arrive at i through port, in
// sending order (FIFO) or as a bag, as model.Link says; a send on a full
// bounded channel blocks.
package biring

import (
	"fmt"

	"mc/model"
)

// Links are the 2n channels of a ring of n.
type Links[M model.Message[M]] struct {
	In []model.Chan[M]
}

// NewLinks returns the empty channels of a ring of n.
func NewLinks[M model.Message[M]](n int) Links[M] {
	return Links[M]{In: make([]model.Chan[M], 2*n)}
}

// Quiet holds when no message is in transit.
func (l *Links[M]) Quiet() bool {
	for i := range l.In {
		if l.In[i].Len() > 0 {
			return false
		}
	}
	return true
}

// CopyFrom makes l a copy of o, reusing l's storage.
func (l *Links[M]) CopyFrom(o *Links[M]) {
	if len(l.In) != len(o.In) {
		l.In = make([]model.Chan[M], len(o.In))
	}
	for i := range o.In {
		l.In[i].CopyFrom(&o.In[i])
	}
}

// AppendTo writes every channel's canonical encoding, process by process,
// Left then Right.
func (l *Links[M]) AppendTo(buf []byte) []byte {
	for i := range l.In {
		buf = l.In[i].AppendTo(buf)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote.
func (l *Links[M]) DecodeFrom(d *model.Decoder, read func(d *model.Decoder) M) {
	for i := range l.In {
		l.In[i].DecodeFrom(d, read)
	}
}

// Vars appends "p2.in.left" and "p2.in.right" for process i.
func (l *Links[M]) Vars(out []model.Var, i int) []model.Var {
	for _, port := range []model.Port{model.Left, model.Right} {
		out = append(out, model.Var{Name: fmt.Sprintf("p%d.in.%s", i, port), Value: l.In[2*i+int(port)].String()})
	}
	return out
}

// Ports is a set of ports: the ports through which a process is willing to
// receive now.
type Ports uint8

const (
	// LeftPort and RightPort are the singleton sets.
	LeftPort  Ports = 1 << model.Left
	RightPort Ports = 1 << model.Right
	// BothPorts is every port.
	BothPorts = LeftPort | RightPort
)

// Has reports whether the set holds port.
func (ps Ports) Has(port model.Port) bool { return ps&(1<<port) != 0 }

// Net is the topology and channel semantics of one instance.
type Net[M model.Message[M]] struct {
	Ring model.Ring
	Link model.Link
}

// NewNet returns the net for parameters p, with a common orientation.
func NewNet[M model.Message[M]](p *model.Params) Net[M] {
	return Net[M]{Ring: model.Ring{N: p.N, Bidirectional: true}, Link: p.Link()}
}

// Send puts m on i's link through port; false if the channel is full.
func (n *Net[M]) Send(l *Links[M], i int, port model.Port, m M) bool {
	j := n.Ring.Neighbour(i, port)
	return l.In[2*j+int(port.Opposite())].Send(n.Link, m)
}

// SendBoth is 002's sendLR and 004's "send to links CW and CCW": m on the
// Right link, then on the Left one.
func (n *Net[M]) SendBoth(l *Links[M], i int, m M) bool {
	return n.Send(l, i, model.Right, m) && n.Send(l, i, model.Left, m)
}

// Choices is the number of receives open to i through the ports in open:
// the head of each FIFO channel, or each distinct message of each bag.
func (n *Net[M]) Choices(l *Links[M], i int, open Ports) int {
	c := 0
	for port := model.Left; port <= model.Right; port++ {
		if open.Has(port) {
			c += l.In[2*i+int(port)].Choices(n.Link)
		}
	}
	return c
}

// locate turns receive choice k into a port and a choice on its channel.
func (n *Net[M]) locate(l *Links[M], i, k int, open Ports) (model.Port, int) {
	if open.Has(model.Left) {
		if c := l.In[2*i].Choices(n.Link); k >= c {
			k -= c
		} else {
			return model.Left, k
		}
	}
	return model.Right, k
}

// Recv removes receive choice k of i and returns the port it came through
// and the message.
func (n *Net[M]) Recv(l *Links[M], i, k int, open Ports) (model.Port, M) {
	port, k := n.locate(l, i, k, open)
	return port, l.In[2*i+int(port)].Recv(n.Link, k)
}

// Label renders receive choice k of i as "recv p2 ⟨probe 5 …⟩ from left".
func (n *Net[M]) Label(l *Links[M], i, k int, open Ports) string {
	port, k := n.locate(l, i, k, open)
	return fmt.Sprintf("recv p%d %v from %s", i, l.In[2*i+int(port)].Peek(n.Link, k), port)
}
