// Package changroberts is the Chang–Roberts election on a unidirectional ring
// (seed 002 §5.2, "The Chang and Roberts algorithm [CHA 79]").
//
// Ring and ids: processes 0..n-1; process i sends only to (i+1) mod n, over
// one channel per process (In[i+1]). Ids are distinct positive integers,
// process 0's first.
//
// Messages: ⟨elect j⟩ (the seed's "election", a candidate id) and ⟨done j⟩
// (the seed's "elected", announcing the winner).
//
// Channels: FIFO by default (--chan bag lets any pending message be received
// next); unbounded unless --cap is given, in which case a send to a full
// channel blocks.
//
// State: per process participant (initially false) and decided (undecided,
// leader, lost), plus the channels. Nothing else: no counters, no history.
// This is the canonical model whose state counts other model checkers
// reproduce (75 states for ids 3,1,4,2; 489 for n=5 descending).
//
// One step is one action of one process:
//
//   - start(i) — 002 §5.2 "when decision (initiate_election)": enabled when i
//     is an initiator, not a participant and undecided. Sets participant and
//     sends ⟨elect id(i)⟩.
//   - recv(i) — 002 §5.2 "when received": removes one message from In[i] and
//     reacts in the same step:
//     ⟨elect j⟩, j > id(i): set participant, forward ⟨elect j⟩;
//     ⟨elect j⟩, j < id(i): if not a participant, set participant and send
//     ⟨elect id(i)⟩, else drop it (a participant swallows smaller ids);
//     ⟨elect j⟩, j = id(i): decide leader, send ⟨done id(i)⟩;
//     ⟨done j⟩, j ≠ id(i): decide lost, forward ⟨done j⟩;
//     ⟨done j⟩, j = id(i): drop it; the election is over.
//
// The seed's "elected" handler also resets participant and records the
// coordinator; the canonical model keeps neither, since decided carries the
// outcome.
//
// Claims (--claims), besides the election properties: elect-messages-bound
// and, for descending ids, the witness elect-messages-worst-case (002 §5.2's
// n(n+1)/2, on uniring's ghost counter); and learns-leader-id (claims.go):
// the seed's "elected" handler records the coordinator, so every process
// learns the leader's id. The model keeps no coordinator; the claim is
// checked on the ⟨done⟩ that makes a process lost, which must carry the
// maximum id. Each claim meets its situation on the default ring (n = 5,
// ids 5,4,3,2,1) in variants canonical and all-initiate, and passes there
// (TestClaimsMeetTheirSituation, issue 35).
//
// Variant raynal-literal reads the seed's slip literally: the case
// "j < my_number and participant" sends ⟨elect id(i)⟩, and a non-participant
// receiving a smaller id does nothing. Started by one initiator that is not
// the maximum, the maximum swallows every message and no leader is ever
// elected: mc reports it as a deadlock (election-complete fails). With
// every process an initiator and ids 5,4,3,2,1 it also breaks
// elect-messages-bound: a participant that receives a smaller id sends
// its own again.
package changroberts

import (
	"fmt"
	"slices"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "canonical", Doc: "002 §5.2 with the classic participant rule (the model other checkers count)"},
	{Name: "raynal-literal", Doc: "002 §5.2 as printed: a participant, not a non-participant, answers a smaller id"},
	{Name: "all-initiate", Doc: "002 §5.2 cost analysis: every process starts at once, its ⟨elect⟩ already on its outgoing link"},
}

// Ref is the seed section the spec comes from.
const Ref = "002 §5.2"

type spec struct {
	*uniring.Net
	literal bool
}

// New builds the system for p.
func New(p model.Params) (*model.System[uniring.State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("changroberts", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	net, err := uniring.NewNet(p)
	if err != nil {
		return nil, err
	}
	if variant == "all-initiate" && p.Initiators != nil && len(p.Initiators) != p.N {
		return nil, fmt.Errorf("variant all-initiate has every process initiate; --initiators cannot restrict it")
	}
	sp := &spec{Net: net, literal: variant == "raynal-literal"}
	sys := sp.System("changroberts", variant, "participant", Ref, []model.Rule[uniring.State]{
		{Name: "start", Ref: Ref + " initiate_election", Guard: sp.canStart, Do: sp.start, Label: sp.StartLabel, Footprint: sp.StartFootprint},
		{Name: "recv", Ref: Ref + " when received", Guard: sp.HasMessage, Choices: sp.RecvChoices, Do: sp.recv, Label: sp.RecvLabel, Footprint: sp.RecvFootprint},
	})
	if !sp.literal {
		// The termination argument of 002 §5.2 (uniring.Termination);
		// the literal variant's participants answer without end.
		sys.Termination = net.Termination(Ref + " termination")
	}
	if p.Claims {
		recv := slices.IndexFunc(sys.Rules, func(r model.Rule[uniring.State]) bool { return r.Name == "recv" })
		sys.Props = append(sys.Props, sp.learnsLeaderID(recv))
	}
	if variant == "all-initiate" {
		for i := range p.N {
			if !sp.start(&sys.Init[0], i, 0) {
				return nil, fmt.Errorf("variant all-initiate needs channels that hold at least one message")
			}
		}
	}
	return sys, nil
}

func (sp *spec) canStart(s *uniring.State, i int) bool {
	return sp.Params.IsInitiator(i) && !s.Flag(i) && s.Decision(i) == invariants.Undecided
}

func (sp *spec) start(s *uniring.State, i int, _ int) bool {
	s.SetFlag(i)
	return sp.SendOwn(s, i)
}

func (sp *spec) recv(s *uniring.State, i, k int) bool {
	m := sp.Receive(s, i, k)
	me := sp.IDs[i]
	switch {
	case m.Kind == uniring.Elect && m.ID > me:
		s.SetFlag(i)
		return sp.Send(s, i, m)
	case m.Kind == uniring.Elect && m.ID < me:
		answers := !s.Flag(i) // a non-participant answers with its own id
		if sp.literal {
			answers = s.Flag(i) // as printed: "j < my_number and participant"
		}
		if !answers {
			return true // swallowed
		}
		s.SetFlag(i)
		return sp.SendOwn(s, i)
	}
	return sp.Conclude(s, i, m)
}
