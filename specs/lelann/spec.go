// Package lelann is the simple "pass only larger ids" election on a
// unidirectional ring (seed 004, the simpler version that opens the section;
// the LeLann / Chang–Roberts style algorithm of the seeds README).
//
// Ring and ids: processes 0..n-1; process i sends only to (i+1) mod n, over
// one channel per process (In[i+1]). Ids are distinct positive integers,
// process 0's first.
//
// Messages: ⟨elect j⟩ (a processor's identifier travelling the ring) and
// ⟨done j⟩ (the seed's "special message … forcing all others to decide not
// to be leaders").
//
// Channels: FIFO by default, or a bag with --chan bag; unbounded unless --cap
// is given, in which case a send to a full channel blocks.
//
// State: per process started (it has sent its own id) and decided (the
// seed's leader variable: NIL, TRUE, FALSE), plus the channels.
//
// One step is one action of one process:
//
//   - start(i) — 004 "each processor sends a message around the ring
//     containing the identifier": enabled when i is an initiator and has not
//     started. Sets started and sends ⟨elect id(i)⟩.
//   - recv(i) — 004 "passes on such message only if the identifier … is
//     strictly larger": removes one message from In[i]. A processor that has
//     not started yet first sends its own ⟨elect id(i)⟩ (it wakes up; the seed
//     assumes every processor sends, and with --initiators not all start
//     spontaneously). Then:
//     ⟨elect j⟩, j > id(i): forward it;
//     ⟨elect j⟩, j < id(i): swallow it;
//     ⟨elect j⟩, j = id(i): decide leader (TRUE), send ⟨done id(i)⟩;
//     ⟨done j⟩, j ≠ id(i): decide lost (FALSE), forward it;
//     ⟨done j⟩, j = id(i): drop it.
//
// Unlike Chang–Roberts, a processor sends its own id whatever it has
// already relayed, so every processor's id leaves it exactly once.
//
// Claims (--claims): elect-messages-bound and, for descending ids, the
// witness elect-messages-worst-case (uniring). Both meet their situation
// on the default ring (n = 5, ids 5,4,3,2,1) and pass there
// (TestClaimsMeetTheirSituation, issue 35).
package lelann

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "simple", Doc: "004's simpler version: every processor sends its id once, only larger ids are passed on"},
}

// Ref is the seed section the spec comes from.
const Ref = "004 (simpler version)"

type spec struct {
	*uniring.Net
}

// New builds the system for p.
func New(p model.Params) (*model.System[uniring.State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("lelann", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	net, err := uniring.NewNet(p)
	if err != nil {
		return nil, err
	}
	sp := &spec{Net: net}
	sys := sp.System("lelann", variant, "started", Ref, []model.Rule[uniring.State]{
		{Name: "start", Ref: Ref + ": each processor sends its identifier", Guard: sp.canStart, Do: sp.start, Label: sp.StartLabel, Footprint: sp.StartFootprint},
		{Name: "recv", Ref: Ref + ": pass on only larger identifiers", Guard: sp.HasMessage, Choices: sp.RecvChoices, Do: sp.recv, Label: sp.RecvLabel, Footprint: sp.RecvFootprint},
	})
	// Every processor sends its id once and every message moves towards
	// its origin (uniring.Termination).
	sys.Termination = net.Termination(Ref)
	return sys, nil
}

func (sp *spec) canStart(s *uniring.State, i int) bool {
	return sp.Params.IsInitiator(i) && !s.Flag(i)
}

func (sp *spec) start(s *uniring.State, i int, _ int) bool {
	s.SetFlag(i)
	return sp.SendOwn(s, i)
}

func (sp *spec) recv(s *uniring.State, i, k int) bool {
	m := sp.Receive(s, i, k)
	if !s.Flag(i) && !sp.start(s, i, 0) {
		return false // waking up, it could not send its own id
	}
	me := sp.IDs[i]
	switch {
	case m.Kind == uniring.Elect && m.ID > me:
		return sp.Send(s, i, m)
	case m.Kind == uniring.Elect && m.ID < me:
		return true // swallowed
	}
	return sp.Conclude(s, i, m)
}
