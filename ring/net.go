package ring

import (
	"github.com/ringcheck/mc/model"
)

// Net is how the processes of a ring are joined: the topology, the
// semantics of every channel, and, on a bidirectional ring, whether its
// links are half- or full-duplex (the package doc defines both). It is
// fixed for a system, or for one initial orientation of it; the messages in
// transit are a Chans value in each state.
//
// The channels are numbered as rule footprints and System.Chans number them
// (Chan): on a unidirectional ring channel i carries the messages into
// process i from its predecessor, so every link is one-way; on a
// bidirectional ring channel 2i+p carries those that arrive at i through
// its port p.
type Net struct {
	Ring Ring
	Sem  model.ChanSemantics
	// Duplex applies to a bidirectional ring; DefaultDuplex is full-duplex.
	Duplex model.Duplex
}

// Count is the number of channels: one per process on a unidirectional
// ring, two on a bidirectional one.
func (n Net) Count() int {
	if n.Ring.Bidirectional {
		return 2 * n.Ring.N
	}
	return n.Ring.N
}

// Chan is the number of the channel into i's port p. A process of a
// unidirectional ring receives through its Left port only.
func (n Net) Chan(i int, p Port) int {
	if n.Ring.Bidirectional {
		return 2*i + int(p)
	}
	return i
}

// Out is the number of the channel that a message sent over i's port p
// goes into: the one into the neighbour's port at the far end. A process of
// a unidirectional ring sends through its Right port, to its successor.
func (n Net) Out(i int, p Port) int {
	j, q := n.Ring.Peer(i, p)
	return n.Chan(j, q)
}

// Ports is the ports a process receives through: Left alone on a
// unidirectional ring, both on a bidirectional one.
func (n Net) Ports() PortSet {
	if n.Ring.Bidirectional {
		return BothPorts
	}
	return OnlyLeft
}

// Semantics is System.Chans for a spec whose footprints number channels
// as Chan does: every channel has the semantics Sem.
func (n Net) Semantics() []model.ChanSemantics {
	out := make([]model.ChanSemantics, n.Count())
	for c := range out {
		out[c] = n.Sem
	}
	return out
}

// Footprint is what a rule of process i touches among the channels
// (model.Footprint): the channels it sends to, through every port it has,
// and, if recv is set, those it receives from. Proc is i; the ghost and
// shared variables are the spec's to add.
func (n Net) Footprint(i int, recv bool) model.Footprint {
	f := model.Footprint{Proc: i}
	if !n.Ring.Bidirectional {
		f.Send = []int{n.Out(i, Right)}
		if recv {
			f.Recv = []int{n.Chan(i, Left)}
		}
		return f
	}
	for p := Left; p <= Right; p++ {
		f.Send = append(f.Send, n.Out(i, p))
		if recv {
			f.Recv = append(f.Recv, n.Chan(i, p))
		}
	}
	return f
}
