// Package biring is what the election specs on a bidirectional ring with a
// common sense of orientation share (hs, franklin): full-duplex links, each
// made of one channel per direction, and the ghost history of phases and
// messages that their claims read, kept together in a Wire that the Net
// sends on and counts.
//
// Orientation: process i's Right port (004's CW) leads to (i+1) mod n and
// its Left port (004's CCW) to (i−1) mod n, for every i. A message that i
// sends on its Right port therefore arrives at i+1 through i+1's Left port,
// and conversely. On a ring of two, the two links between the processes are
// still distinct: 0's Right link is 1's Left link, 0's Left link 1's Right.
//
// Channels: In[2i+port] holds the messages that arrive at i through port, in
// sending order (FIFO) or as a bag, as model.ChanSemantics says; a send on a full
// bounded channel blocks.
//
// Counting: with claims on, every send counts in the ghost, as an election
// message or, if the spec says so, as one of the announcement round.
//
// Why not ring.Links (vlt's): its channels are FIFO and unbounded and one
// of its receive steps may take the messages waiting at both ports at once,
// as seed 000 needs; hs and franklin take one message per step from one
// port, and take --chan bag (hs) and --cap.
package biring

import (
	"fmt"

	"mc/model"
	"mc/ring"
)

// Ports is a set of ports: the ports through which a process is willing to
// receive now.
type Ports uint8

const (
	// LeftPort and RightPort are the singleton sets.
	LeftPort  Ports = 1 << ring.Left
	RightPort Ports = 1 << ring.Right
	// BothPorts is every port.
	BothPorts = LeftPort | RightPort
)

// Has reports whether the set holds port.
func (ps Ports) Has(port ring.Port) bool { return ps&(1<<port) != 0 }

// Net is the topology, channel semantics and ghost bookkeeping of one
// instance.
type Net[M ring.Message[M]] struct {
	Ring ring.Ring
	Sem  model.ChanSemantics
	// Claims turns the ghost on; Caps are its saturation points.
	Claims bool
	Caps   Caps
	// Announces tells the announcement round's messages from the
	// election's, for counting.
	Announces func(m M) bool
}

// NewNet returns the net for parameters p, with a common orientation, the
// ghost caps the spec's claims need and the spec's announcement test.
func NewNet[M ring.Message[M]](p *model.Params, caps Caps, announces func(m M) bool) Net[M] {
	return Net[M]{Ring: ring.Ring{N: p.N, Bidirectional: true}, Sem: p.ChanSemantics(), Claims: p.Claims, Caps: caps, Announces: announces}
}

// Send puts m on i's link through port, and counts it; false if the
// channel is full.
func (n *Net[M]) Send(w *Wire[M], i int, port ring.Port, m M) bool {
	if n.Claims && n.Announces(m) {
		w.Ghost.Announce(n.Caps)
	} else if n.Claims {
		w.Ghost.Count(n.Caps, 1)
	}
	j, q := n.Ring.Peer(i, port)
	return w.In[2*j+int(q)].Send(n.Sem, m)
}

// SendBoth is 002's sendLR and 004's "send to links CW and CCW": m on the
// Right link, then on the Left one.
func (n *Net[M]) SendBoth(w *Wire[M], i int, m M) bool {
	return n.Send(w, i, ring.Right, m) && n.Send(w, i, ring.Left, m)
}

// Enter records, with claims on, that p entered its k-th phase or stage.
func (n *Net[M]) Enter(w *Wire[M], p, k int) {
	if n.Claims {
		w.Ghost.Enter(n.Caps, p, k)
	}
}

// Advance records, with claims on, that p entered its next phase or stage.
func (n *Net[M]) Advance(w *Wire[M], p int) {
	if n.Claims {
		w.Ghost.Advance(n.Caps, p)
	}
}

// Choices is the number of receives open to i through the ports in open:
// the head of each FIFO channel, or each distinct message of each bag.
func (n *Net[M]) Choices(w *Wire[M], i int, open Ports) int {
	c := 0
	for port := ring.Left; port <= ring.Right; port++ {
		if open.Has(port) {
			c += w.In[2*i+int(port)].Choices(n.Sem)
		}
	}
	return c
}

// locate turns receive choice k into a port and a choice on its channel.
func (n *Net[M]) locate(w *Wire[M], i, k int, open Ports) (ring.Port, int) {
	if open.Has(ring.Left) {
		if c := w.In[2*i].Choices(n.Sem); k >= c {
			k -= c
		} else {
			return ring.Left, k
		}
	}
	return ring.Right, k
}

// Recv removes receive choice k of i and returns the port it came through
// and the message.
func (n *Net[M]) Recv(w *Wire[M], i, k int, open Ports) (ring.Port, M) {
	port, k := n.locate(w, i, k, open)
	return port, w.In[2*i+int(port)].Recv(n.Sem, k)
}

// Label renders receive choice k of i as "recv p2 ⟨probe 5 …⟩ from left".
func (n *Net[M]) Label(w *Wire[M], i, k int, open Ports) string {
	port, k := n.locate(w, i, k, open)
	return fmt.Sprintf("recv p%d %v from %s", i, w.In[2*i+int(port)].Peek(n.Sem, k), port)
}

// Footprint is what a rule of process i touches (model.Footprint): i's
// own variables, the channels it sends to through either port and, if
// recv is set, its two input channels; with claims on, the ghost, which
// every send counts in. Channel c is In[c] (Wire).
func (n *Net[M]) Footprint(recv bool) func(i int) model.Footprint {
	return func(i int) model.Footprint {
		f := model.Footprint{Proc: i, Ghost: n.Claims}
		for port := ring.Left; port <= ring.Right; port++ {
			j, q := n.Ring.Peer(i, port)
			f.Send = append(f.Send, 2*j+int(q))
			if recv {
				f.Recv = append(f.Recv, 2*i+int(port))
			}
		}
		return f
	}
}

// CheckLinks refuses parameters that ask for half-duplex links or fix
// local orientations: the specs on this package's rings have full-duplex
// links and a common orientation, which their seeds fix.
func CheckLinks(spec string, p *model.Params) error {
	if p.Duplex == model.HalfDuplex {
		return fmt.Errorf("spec %s runs on full-duplex links; half-duplex links are not supported", spec)
	}
	if p.Orientation != nil {
		return fmt.Errorf("spec %s assumes a common orientation; a local orientation cannot be fixed", spec)
	}
	return nil
}
