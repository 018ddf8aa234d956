// Package example is the worked example of docs/writing-a-spec.md: a
// cut-down Chang–Roberts election on a unidirectional ring (seed 002 §5.2),
// built from the shared vocabulary alone (package ring's channels, package
// invariants' properties). It is not in the registry (package specs), so
// mc's commands do not offer it; its tests pin its state counts, which equal
// those of the registered changroberts, and kill each property with a
// mutant. The guide quotes this code, and a test fails when a quote no
// longer matches.
//
// Ring and ids: processes 0..n-1; process i sends only to (i+1) mod n, over
// one channel per process (the channel into i). Ids are distinct positive
// integers, process 0's first.
//
// Messages: ⟨elect j⟩ (the seed's "election", a candidate id) and ⟨done j⟩
// (the seed's "elected", announcing the winner).
//
// Channels: FIFO, or a bag with --chan bag; unbounded unless --cap is
// given, in which case a send to a full channel blocks the step.
//
// One step is one action of one process:
//
//   - start(i) — 002 §5.2 "when decision (initiate_election)": enabled when i
//     is an initiator, not a participant and undecided. Sets participant and
//     sends ⟨elect id(i)⟩.
//   - recv(i) — 002 §5.2 "when received": removes one message from i's
//     channel and reacts in the same step: ⟨elect j⟩, j > id(i): set
//     participant, forward it; ⟨elect j⟩, j < id(i): if not a participant,
//     set participant and send ⟨elect id(i)⟩, else drop it; ⟨elect id(i)⟩:
//     decide leader, send ⟨done id(i)⟩; ⟨done j⟩, j ≠ id(i): decide lost,
//     forward it; its own ⟨done⟩: drop it, the election is over.
//
// Variant raynal-literal reads the seed's slip as printed: the case
// "j < my_number and participant" answers with ⟨elect id(i)⟩, and a
// non-participant swallows the smaller id.
//
// Left out, which the registered specs have: rule footprints and the
// properties' Reads (so --por would explore every interleaving), ghost
// variables and claims, and the cost profile of sweeps.
package example

import (
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Ref is the seed section the spec comes from.
const Ref = "002 §5.2"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "canonical", Doc: "002 §5.2 with the classic participant rule"},
	{Name: "raynal-literal", Doc: "002 §5.2 as printed: a participant, not a non-participant, answers a smaller id"},
}

// spec holds what is fixed for one system: its parameters and its ring.
type spec struct {
	p   model.Params
	net ring.Net
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Resolve("example", Variants); err != nil {
		return nil, err
	}
	sp := &spec{p: p, net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}}
	return model.Derive(&model.System[State]{
		Spec: "example", Variant: p.Variant, Params: p, Procs: p.N,
		Init: []State{{Participant: make([]bool, p.N), Decided: make(invariants.Decided, p.N), In: ring.NewChans[Msg](sp.net)}},
		Rules: []model.Rule[State]{
			{Name: "start", Ref: Ref + " initiate_election", Guard: sp.canStart, Do: sp.start},
			{Name: "recv", Ref: Ref + " when received", Guard: sp.hasMessage, Choices: sp.choices, Do: sp.recv, Label: sp.recvLabel},
		},
		// The election's claims (002 §5.2), from the library: the maximum
		// is elected, and a terminal state has no message in transit.
		Props: invariants.ElectionProperties(Ref, invariants.MaxWinner(p.IDs, Ref),
			func(s *State) invariants.Election { return s.Decided }, func(s *State) bool { return s.In.Quiet() }),
		// A run may stop once nothing is in transit; one that stopped with
		// every next send blocked on a full channel (--cap) would be a
		// deadlock. Whether it stopped with the right leader is
		// election-complete's to say.
		Ends: func(s *State) bool { return s.In.Quiet() },
		View: sp.view,
	}), nil
}

func (sp *spec) canStart(s *State, i int) bool {
	return sp.p.IsInitiator(i) && !s.Participant[i] && s.Decided[i] == invariants.Undecided
}

func (sp *spec) start(s *State, i, _ int) bool {
	s.Participant[i] = true
	return sp.send(s, i, Msg{Kind: Elect, ID: sp.p.IDs[i]})
}

// send puts m on the link to i's successor; false if the channel is full.
func (sp *spec) send(s *State, i int, m Msg) bool { return s.In.Send(sp.net, i, ring.Right, m) }

func (sp *spec) hasMessage(s *State, i int) bool { return s.In.Waiting(sp.net, i, ring.Left) }

// choices is how many receives i's channel offers: its head (FIFO), or
// each distinct message (bag).
func (sp *spec) choices(s *State, i int) int { return s.In.Choices(sp.net, i, ring.OnlyLeft) }

func (sp *spec) recv(s *State, i, k int) bool {
	_, m := s.In.Recv(sp.net, i, k, ring.OnlyLeft)
	me := sp.p.IDs[i]
	switch {
	case m.Kind == Elect && m.ID > me:
		s.Participant[i] = true
		return sp.send(s, i, m)
	case m.Kind == Elect && m.ID < me:
		// A non-participant answers with its own id; as printed
		// (raynal-literal), "j < my_number and participant": a participant.
		if s.Participant[i] != (sp.p.Variant == "raynal-literal") {
			return true // swallowed
		}
		s.Participant[i] = true
		return sp.send(s, i, Msg{Kind: Elect, ID: me})
	case m.Kind == Elect: // its own id came back: it is the maximum
		s.Decided[i] = invariants.Leader
		return sp.send(s, i, Msg{Kind: Done, ID: me})
	case m.ID != me:
		s.Decided[i] = invariants.Lost
		return sp.send(s, i, m)
	}
	return true // its own ⟨done⟩ came back: the election is over
}

// recvLabel renders a receive as a trace shows it, "recv p1 ⟨elect 3⟩"
// (a rule without a Label shows its name and process: "start p0").
func (sp *spec) recvLabel(s *State, i, k int) string {
	return s.In.RecvLabel(sp.net, i, k, ring.OnlyLeft)
}
