// Package biring is what the election specs on a bidirectional ring with a
// common sense of orientation share (hs, franklin): the assembly of their
// systems (State, System), and the ghost history of phases and messages
// that their claims read, which the Net counts every send in.
//
// Orientation: process i's Right port (004's CW) leads to (i+1) mod n and
// its Left port (004's CCW) to (i−1) mod n, for every i. A message that i
// sends on its Right port therefore arrives at i+1 through i+1's Left port,
// and conversely. On a ring of two, the two links between the processes are
// still distinct: 0's Right link is 1's Left link, 0's Left link 1's Right.
//
// Channels: full-duplex links, ring.Chans on a bidirectional ring.Net, in
// sending order (FIFO) or as a bag, as --chan says; a send on a full
// bounded channel blocks. A receive step takes one message through the
// ports a process is open to (ring.Chans.Choices), not seed 000's joint
// receive of vlt.
//
// Counting: with claims on, every send counts in the ghost, as an election
// message or, if the spec says so, as one of the announcement round.
package biring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Net is the ring, its channels' semantics and the ghost bookkeeping of one
// instance, for the states State[P, M].
type Net[P any, M ring.Message[M]] struct {
	ring.Net
	// Claims turns the ghost on; Caps are its saturation points.
	Claims bool
	Caps   Caps
	// Announces tells the announcement round's messages from the
	// election's, for counting.
	Announces func(m M) bool
}

// NewNet returns the net for parameters p, with a common orientation and
// full-duplex links, the ghost caps the spec's claims need and the spec's
// announcement test.
func NewNet[P any, M ring.Message[M]](p *model.Params, caps Caps, announces func(m M) bool) Net[P, M] {
	return Net[P, M]{Net: netOf(p), Claims: p.Claims, Caps: caps, Announces: announces}
}

// netOf is the ring of p with a common orientation and full-duplex links.
func netOf(p *model.Params) ring.Net {
	return ring.Net{Ring: ring.Ring{N: p.N, Bidirectional: true}, Sem: p.ChanSemantics(), Duplex: model.FullDuplex}
}

// Send puts m on i's link through port, and counts it; false if the
// channel is full.
func (n *Net[P, M]) Send(s *State[P, M], i int, port ring.Port, m M) bool {
	if n.Claims && n.Announces(m) {
		s.Ghost.Announce(n.Caps)
	} else if n.Claims {
		s.Ghost.Count(n.Caps, 1)
	}
	return s.Chans.Send(n.Net, i, port, m)
}

// SendBoth is 002's sendLR and 004's "send to links CW and CCW": m on the
// Right link, then on the Left one.
func (n *Net[P, M]) SendBoth(s *State[P, M], i int, m M) bool {
	return n.Send(s, i, ring.Right, m) && n.Send(s, i, ring.Left, m)
}

// Enter records, with claims on, that p entered its k-th phase or stage.
func (n *Net[P, M]) Enter(s *State[P, M], p, k int) {
	if n.Claims {
		s.Ghost.Enter(n.Caps, p, k)
	}
}

// Advance records, with claims on, that p entered its next phase or stage.
func (n *Net[P, M]) Advance(s *State[P, M], p int) {
	if n.Claims {
		s.Ghost.Advance(n.Caps, p)
	}
}

// Choices is the number of receives open to i through the ports in open.
func (n *Net[P, M]) Choices(s *State[P, M], i int, open ring.PortSet) int {
	return s.Chans.Choices(n.Net, i, open)
}

// Recv removes receive choice k of i and returns the port it came through
// and the message.
func (n *Net[P, M]) Recv(s *State[P, M], i, k int, open ring.PortSet) (ring.Port, M) {
	return s.Chans.Recv(n.Net, i, k, open)
}

// Label renders receive choice k of i as "recv p2 ⟨probe 5 …⟩ from left".
func (n *Net[P, M]) Label(s *State[P, M], i, k int, open ring.PortSet) string {
	return s.Chans.RecvLabel(n.Net, i, k, open)
}

// Footprint is what a rule of process i touches (model.Footprint): i's
// own variables, the channels it sends to through either port and, if
// recv is set, its two input channels; with claims on, the ghost, which
// every send counts in.
func (n *Net[P, M]) Footprint(recv bool) func(i int) model.Footprint {
	return func(i int) model.Footprint {
		f := n.Net.Footprint(i, recv)
		f.Ghost = n.Claims
		return f
	}
}

// CheckDuplex refuses parameters that ask for half-duplex links or fix
// local orientations: the specs on this package's rings have full-duplex
// links and a common orientation, which their seeds fix.
func CheckDuplex(spec string, p *model.Params) error {
	if p.Duplex == model.HalfDuplex {
		return fmt.Errorf("spec %s runs on full-duplex links; half-duplex links are not supported", spec)
	}
	if p.Orientation != nil {
		return fmt.Errorf("spec %s assumes a common orientation; a local orientation cannot be fixed", spec)
	}
	return nil
}
