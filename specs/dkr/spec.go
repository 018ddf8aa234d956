// Package dkr is the Dolev–Klawe–Rodeh / Peterson election on a
// unidirectional ring (seed 002 §5.4, "The algorithm of Dolev, Klawe and
// Rodeh [DOL 82]"; §5.5.2 notes that Peterson gave the same algorithm).
//
// Ring and ids: processes 0..n-1; process i sends only to (i+1) mod n. The
// seed lets messages flow "from right to left": sendL is our send to the
// successor, and a process's right neighbour is its predecessor. Ids are
// distinct positive integers, process 0's first.
//
// Messages: (1, number) and (2, number), the seed's (b, number), where
// number is the max of the first (b = 1) or second (b = 2) active process on
// the sender's right; and ⟨leader number⟩, the announcement this spec adds.
//
// Channels: FIFO and unbounded, or bounded by --cap (a send to a full
// channel blocks). FIFO is required: the seed relies on every active process
// receiving (1, ·) and (2, ·) alternately ("Types of message"), so
// --chan bag is refused.
//
// State: per process the seed's state (active, passive; before it initiates
// the election a process is asleep, the seed's "initialized passive"), max
// (initially its own id) and neighbourR; what it knows of the outcome
// (decided, and the leader's id); and its input channel.
//
// One step is one action of one process, with all it sends:
//
//   - start(i) — 002 §5.4 "when decision (initiate_election)": enabled when i
//     is asleep and either an initiator or a message waits for it (002 §5.4
//     (a): "a process would decide to participate on first receiving a
//     message"). Sends (1, id(i)) and becomes active.
//   - recv(i) — enabled when i is not asleep: removes the message at the
//     head of i's channel and reacts in the same step:
//     (1, number) at an active process — 002 §5.4 "when received (1,
//     number)": if number ≠ max, send (2, number) and set neighbourR ←
//     number; if number = max, max is the greatest id (see below);
//     (2, number) at an active process — 002 §5.4 "when received (2,
//     number)": if neighbourR > number and neighbourR > max, set max ←
//     neighbourR and send (1, neighbourR) (the next stage); otherwise become
//     passive;
//     (1, ·) and (2, ·) at a passive process: relay it unchanged (002 §5.4
//     "the role of a passive process is simply to pass to its neighbour on
//     the left any message received");
//     ⟨leader m⟩: a process that does not know the outcome learns that the
//     process with id m won (it is the leader if m is its own id, and lost
//     otherwise) and relays it; the process that sent it drops it.
//
// The announcement is ours. The seed leaves it out (002 §5.4 (b): "a message
// of special type can transport this around the ring so that all processes
// are informed in a single turn", and the code's "else (max is greatest
// number and is sent to all processes)"). When an active process receives
// (1, max), it learns that max, the greatest id, won and sends ⟨leader max⟩;
// the announcement goes once round the ring, n messages, counted apart from
// the election's. The leader is the process whose id is max, which need not
// be the process that detects it.
//
// Reconstructions: the scan breaks the code of "when received (1, number)"
// across a figure; the "else" branch above is read as the number = max case
// of the inner if (number ≠ max), as the prose says ("leaving a single
// process that knows the greatest identifier"). The bound "2n log n + n" is
// read as written, log = log₂ (election-messages-bound, checked on whole
// numbers: n + ⌊2n log₂ n⌋). The worst case, 2n⌊log₂ n⌋ + n (the tests pin
// it for n ≤ 6), fits it for every n, and meets it where n is a power of 2.
//
// Every run is finite and the state space is finite without any
// abstraction: max only grows and takes ids as values, each stage at least
// halves the active processes (checked, with --claims, by active-halves),
// and each message received sends at most one.
//
// Every claim meets its situation on the default ring (n = 5, ids
// 5,4,3,2,1: two processes active in stage 2, the announcement sent) and
// passes there (TestClaimsMeetTheirSituation, issue 35).
package dkr

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"
	"slices"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "seed", Doc: "002 §5.4 as printed, with an announcement round added"},
}

// Ref is the seed section the spec comes from.
const Ref = "002 §5.4"

type spec struct {
	p   model.Params
	net ring.Net
	// stays is the seed's test for an active process to stay active after
	// (2, number). Tests replace it with broken mutants.
	stays func(neighbourR, number, max int) bool
	// stages bounds the ghost stage counters (see Ghost).
	stages int
}

// seedStays is 002 §5.4: "if neighbourR > number and neighbourR > max".
func seedStays(neighbourR, number, max int) bool { return neighbourR > number && neighbourR > max }

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	sp, err := newSpec(p)
	if err != nil {
		return nil, err
	}
	return sp.system(), nil
}

func newSpec(p model.Params) (*spec, error) {
	p, err := ring.FIFOParams("dkr", Variants, p, "002 §5.4: (1, ·) and (2, ·) arrive alternately")
	if err != nil {
		return nil, err
	}
	// Stages 1..⌊log₂ n⌋+1, plus one bucket that a broken mutant overflows
	// into; index 0 is unused.
	return &spec{p: p, net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}, stays: seedStays, stages: log2Floor(p.N) + 3}, nil
}

func (sp *spec) system() *model.System[State] {
	n := sp.p.N
	init := newState(n, sp.p.Claims, sp.stages)
	copy(init.Max, sp.p.IDs)
	// Both rules touch process i's variables, receive from (start: wait
	// on) In[i] and send to In[i+1]; with claims on they count in the
	// ghost.
	fp := sp.footprint
	var measures []model.Measure[State]
	if sp.p.Claims {
		measures = []model.Measure[State]{{Name: "stages", Ref: Ref + " (at most log₂ n + 1 stages)",
			Doc: "the most stages a process was active in", Value: func(s *State) int { return slices.Max(s.Ghost.Stage) },
			Reads: func(buf []byte, s *State) []byte { return model.AppendInts(buf, s.Ghost.Stage) }},
			// What mc simulate counts messages by; the exhaustive sweep
			// counts the same messages off the View.
			{Name: "election-messages", Ref: Ref + " (2n log n + n messages)",
				Doc: "(1, ·) and (2, ·) messages sent in a run, relays included (the ⟨leader⟩ announcement apart)", Value: func(s *State) int { return s.Ghost.Sent },
				Reads: func(buf []byte, s *State) []byte { return model.AppendUint(buf, uint64(s.Ghost.Sent)) }}}
	}
	return &model.System[State]{
		Spec:    "dkr",
		Variant: sp.p.Variant,
		Params:  sp.p,
		Procs:   n,
		Init:    []State{init},
		Rules: []model.Rule[State]{
			{Name: "start", Ref: Ref + " initiate_election", Guard: sp.canStart, Do: sp.start, Label: sp.startLabel, Footprint: fp, Ready: asleep},
			{Name: "recv", Ref: Ref + " when received", Guard: sp.hasMessage, Do: sp.recv, Label: sp.recvLabel, Footprint: fp, Ready: awake},
		},
		Chans:       sp.net.Semantics(),
		Props:       sp.properties(),
		Ends:        model.EveryEnd[State], // election-complete judges every terminal state
		Measures:    measures,
		Termination: sp.termination(),
		Copy:        copyState,
		Encode:      encode,
		Decode:      decoder(n),
		Erase:       Erase,
		Vars:        func(s *State) []model.Var { return vars(sp.net, s) },
		View: func(s *State) model.View {
			return model.View{Procs: invariants.ProcViews(sp.p.IDs, &s.Out), Chans: s.In.Views(sp.net)}
		},
		InTransit: func(s *State, visit func(int, string, []byte)) { s.In.InTransit(sp.net, visit) },
	}
}

// canStart: an initiator starts spontaneously; any other process when a
// message waits for it (002 §5.4 (a)).
func (sp *spec) canStart(s *State, i int) bool {
	return s.Mode[i] == Asleep && (sp.p.IsInitiator(i) || s.In[i].Len() > 0)
}

// asleep and awake are the parts of start's and recv's guards that read
// only process i's own state (model.Rule.Ready).
func asleep(s *State, i int) bool { return s.Mode[i] == Asleep }
func awake(s *State, i int) bool  { return s.Mode[i] != Asleep }

func (sp *spec) start(s *State, i, _ int) bool {
	s.Mode[i] = Active
	return sp.originate(s, i, sp.p.IDs[i])
}

func (sp *spec) startLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("start p%d (sends %v)", i, Msg{First, sp.p.IDs[i]})
}

func (sp *spec) hasMessage(s *State, i int) bool { return s.Mode[i] != Asleep && s.In[i].Len() > 0 }

func (sp *spec) recvLabel(s *State, i, _ int) string {
	return fmt.Sprintf("recv p%d %v", i, s.In[i].Peek(sp.net.Sem, 0))
}

func (sp *spec) recv(s *State, i, _ int) bool {
	m := s.In[i].Recv(sp.net.Sem, 0)
	switch {
	case m.Kind == Announce:
		return !s.Out.Hear(i, m.Number, sp.p.IDs[i]) || sp.send(s, i, m)
	case s.Mode[i] == Passive:
		return sp.send(s, i, m)
	case m.Kind == First && m.Number != s.Max[i]:
		s.NeighbourR[i] = m.Number
		return sp.send(s, i, Msg{Second, m.Number})
	case m.Kind == First:
		// Its own max came back: the only active process left holds the
		// greatest id.
		s.Out.Learn(i, m.Number, sp.p.IDs[i])
		return sp.send(s, i, Msg{Announce, m.Number})
	case sp.stays(s.NeighbourR[i], m.Number, s.Max[i]):
		s.Max[i] = s.NeighbourR[i]
		return sp.originate(s, i, s.Max[i])
	}
	s.Mode[i] = Passive
	return true
}

// originate sends (1, number) for active process i, which enters its next
// stage.
func (sp *spec) originate(s *State, i, number int) bool {
	if !sp.send(s, i, Msg{First, number}) {
		return false
	}
	if g := &s.Ghost; sp.p.Claims {
		g.Stage[i] = min(g.Stage[i]+1, sp.stages-1)
		g.Entered[g.Stage[i]] = min(g.Entered[g.Stage[i]]+1, sp.p.N+1)
	}
	return true
}

// send puts m on i's outgoing channel; with claims on it counts it.
func (sp *spec) send(s *State, i int, m Msg) bool {
	if !s.In.Send(sp.net, i, ring.Right, m) {
		return false
	}
	if g := &s.Ghost; sp.p.Claims {
		if m.Kind == Announce {
			g.Announced = min(g.Announced+1, sp.p.N+1)
		} else {
			g.Sent = min(g.Sent+1, sp.messageBound()+1)
		}
	}
	return true
}

// log2Floor is ⌊log₂ n⌋ for n ≥ 1.
func log2Floor(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// footprint is what every rule touches at process i (model.Footprint): i's
// own variables, its input channel, from which it receives, and its
// successor's, to which it sends; with claims on, the ghost. The start
// rule, which only waits on i's input channel (a non-initiator starts when
// a message reaches it), lists it too: it is enabled by a waiting message,
// and if it is enabled with the channel empty (an initiator) a message
// arriving there changes nothing it does.
func (sp *spec) footprint(i int) model.Footprint {
	f := sp.net.Footprint(i, true)
	f.Ghost = sp.p.Claims
	return f
}
