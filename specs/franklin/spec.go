// Package franklin is Franklin's election on a bidirectional ring (seed 002
// §5.5.1, "Franklin's algorithm [FRA 82]"), with the announcement round that
// 002 §5.4 (b) describes in words.
//
// Ring and ids: processes 0..n-1 with distinct positive ids. The ring has a
// common orientation: every process's Right port leads to (i+1) mod n and
// its Left port to (i−1) mod n (package biring). Franklin's comparisons are
// symmetric, so the orientation only fixes where the announcement goes.
//
// Links: full-duplex, one FIFO channel per direction (--chan bag is refused:
// stages are separated by FIFO order, below); unbounded unless --cap is
// given, in which case a send to a full channel blocks.
//
// Messages: ⟨id v⟩, an active process's id on its way to the nearest active
// process on that side; ⟨leader v⟩, the announcement.
//
// State: per process status (asleep, active, passive, elected), heard[left]
// and heard[right] (the id received through that port in the current stage,
// "-" before it arrives), and what it knows of the outcome (decided, and
// the leader's id once known; invariants.Outcome), plus the 2n channels. No
// stage counter: stages are separated without one.
//
// One step is one action of one process:
//
//   - start(i) — 002 §5.5.1 with §5.4 (a), "all the processes decide to
//     participate": enabled when i is an initiator and asleep. i turns active
//     (stage 1) and sends ⟨id id(i)⟩ through both ports.
//   - recv(i) — 002 §5.5.1: removes the head of one of i's two input
//     channels. An asleep process first starts as above (§5.4 (a): "a process
//     would decide to participate on first receiving a message"). Then:
//     ⟨id v⟩ at an active process: heard[port] ← v; once both sides are
//     heard, i compares: if both are its own id, its messages went round a
//     ring with no other active process, so it is elected: it decides leader
//     and sends ⟨leader id(i)⟩ through its Right port; if its id
//     is larger than both, it stays active, clears heard and starts the next
//     stage by sending ⟨id id(i)⟩ through both ports; otherwise it turns
//     passive ("if it is not then the process becomes passive").
//     ⟨id v⟩ at a passive process: relayed through the other port ("simply
//     relays any message received").
//     ⟨leader v⟩: a process that does not know the outcome decides lost,
//     records v as the leader's id and relays it through the other port;
//     back at the winner it is dropped.
//
// Stage separation. The seed says only that an active process compares its
// id with those of its active neighbours on both sides, stage after stage.
// No message carries a stage number; two rules keep the stages apart:
//
//  1. FIFO per direction: an active process sends its stage-k+1 id after its
//     stage-k id on the same link, and passive processes relay in arrival
//     order, so on every link the ids of one sender arrive in stage order.
//  2. An active process receives through a port only while heard[port] is
//     empty: having heard its stage-k neighbour on one side, it leaves that
//     side's next message, which belongs to stage k+1, in the channel until
//     the other side's stage-k id has arrived and the stage is decided.
//
// Together they guarantee that the two ids an active process compares are
// those of its nearest active neighbours in the same stage. This is the
// same argument as 002 §5.4's remark that the 1/2 tags of Dolev–Klawe–Rodeh
// are redundant, "since the order is always (1, …) (2, …) (1, …)". Under a
// bag the argument fails, hence FIFO only.
//
// Claims (with --claims; ghost: stages entered per process, ⟨id⟩ messages
// sent, ⟨leader⟩ messages sent): active-halves, the number of processes
// active in stage k+1 is at most half the number active in stage k (002
// §5.5.1 "divided by at least 2 at each stage"); election-messages-bound,
// at most ⌊2n(1 + log₂ n)⌋ ⟨id⟩ messages (002 §5.5.1);
// announcement-messages-bound and announcement-messages, the announcement
// takes exactly n messages. The announcement is not counted in the 2n(1 +
// log n), as the seed leaves dissemination out (§5.4 (b)): with it, ids
// 4,1,3,2 take 3 stages and 24 + 4 = 28 messages, above 2·4·(1 + 2) = 24.
// Every claim meets its situation on the default ring (n = 5, ids
// 5,4,3,2,1: a process in stage 2, the announcement sent) and passes there
// (TestClaimsMeetTheirSituation, issue 35).
package franklin

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "seed", Doc: "002 §5.5.1: compare with the nearest active neighbour on each side; stages kept apart by FIFO order; then an announcement round"},
}

// Ref is the seed section the spec comes from.
const Ref = "002 §5.5.1"

type spec struct {
	net    biring.Net[Proc, Msg]
	params model.Params
	// judge decides a stage; it is always compare, and tests replace it to
	// build mutants.
	judge func(me, left, right int) verdict
}

// verdict is how an active process leaves a stage.
type verdict uint8

const (
	// survives: its id beats both neighbours'; it starts the next stage.
	survives verdict = iota
	// loses: it turns passive.
	loses
	// wins: it heard its own id from both sides.
	wins
)

// compare is 002 §5.5.1's test: an active process stays active if its id
// is greater than those of its nearest active neighbours on both sides; its
// own id from both sides means no other process is active.
func compare(me, left, right int) verdict {
	switch {
	case left == me && right == me:
		return wins
	case me > left && me > right:
		return survives
	}
	return loses
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	_, sys, err := build(p)
	return sys, err
}

// build returns the system and the spec behind its rules, which tests use
// to build mutants.
func build(p model.Params) (*spec, *model.System[State], error) {
	p, err := ring.FIFOParams("franklin", Variants, p, "002 §5.5.1: stages are kept apart by FIFO order, see go doc ./specs/franklin")
	if err == nil {
		err = biring.CheckDuplex("franklin", &p)
	}
	if err != nil {
		return nil, nil, err
	}
	sp := &spec{net: biring.NewNet[Proc](&p, claimCaps(p.N), announces), params: p, judge: compare}
	winner := invariants.MaxWinner(p.IDs, Ref+" (the process whose identifier is greater than its neighbours' stays active)")
	return sp, biring.System[Proc](biring.Spec[Proc, Msg]{Name: "franklin", Variant: p.Variant, Params: p,
		Read: ring.ReadTagged[Kind], Ref: Ref, Winner: winner, Claims: claims(&p), Word: "stages",
		WordRef: Ref + " (at most 1 + log₂ n stages)", SentRef: Ref + " (2n(1 + log n) messages)", Termination: sp.termination()},
		[]model.Rule[State]{
			{Name: "start", Ref: "002 §5.4 (a), §5.5.1", Guard: sp.canStart, Do: sp.start, Footprint: sp.net.Footprint(false),
				Label: func(_ *State, i, _ int) string {
					return fmt.Sprintf("start p%d (sends ⟨id %d⟩ both ways)", i, p.IDs[i])
				}},
			{Name: "recv", Ref: Ref, Guard: sp.canRecv, Choices: sp.recvChoices, Do: sp.recv, Footprint: sp.net.Footprint(true),
				Label: func(s *State, i, k int) string { return sp.net.Label(s, i, k, open(s, i)) }},
		}), nil
}

// open is the set of ports through which i receives now: an active process
// only through a side not yet heard in this stage (rule 2 of the package
// doc), every other process through both.
func open(s *State, i int) ring.PortSet {
	p := &s.P[i]
	if p.Status != Active {
		return ring.BothPorts
	}
	var ports ring.PortSet
	if p.Heard[ring.Left] == 0 {
		ports |= ring.OnlyLeft
	}
	if p.Heard[ring.Right] == 0 {
		ports |= ring.OnlyRight
	}
	return ports
}

func (sp *spec) canStart(s *State, i int) bool {
	return s.P[i].Status == Asleep && sp.params.IsInitiator(i)
}

func (sp *spec) start(s *State, i, _ int) bool {
	s.P[i].Status = Active
	sp.net.Enter(s, i, 1)
	return sp.sendID(s, i)
}

// sendID sends ⟨id id(i)⟩ through both ports: i enters a stage.
func (sp *spec) sendID(s *State, i int) bool {
	return sp.net.SendBoth(s, i, Msg{Kind: ID, ID: sp.params.IDs[i]})
}

// relay passes m on through the port opposite the one it came by.
func (sp *spec) relay(s *State, i int, port ring.Port, m Msg) bool {
	return sp.net.Send(s, i, port.Opposite(), m)
}

func (sp *spec) canRecv(s *State, i int) bool { return sp.recvChoices(s, i) > 0 }

func (sp *spec) recvChoices(s *State, i int) int { return sp.net.Choices(s, i, open(s, i)) }

func (sp *spec) recv(s *State, i, k int) bool {
	port, m := sp.net.Recv(s, i, k, open(s, i))
	if s.P[i].Status == Asleep && !sp.start(s, i, 0) {
		return false
	}
	p := &s.P[i]
	me := sp.params.IDs[i]
	switch {
	case m.Kind == Leader:
		if !s.Out.Hear(i, m.ID, me) {
			return true // the announcement is back at the winner
		}
		return sp.relay(s, i, port, m)
	case p.Status != Active:
		return sp.relay(s, i, port, m)
	}
	p.Heard[port] = m.ID
	left, right := p.Heard[ring.Left], p.Heard[ring.Right]
	if left == 0 || right == 0 {
		return true // waiting for the other side of this stage
	}
	p.Heard = [2]int{}
	switch sp.judge(me, left, right) {
	case wins:
		p.Status = Won
		s.Out.Learn(i, me, me)
		return sp.net.Send(s, i, ring.Right, Msg{Kind: Leader, ID: me})
	case survives:
		sp.net.Advance(s, i)
		return sp.sendID(s, i)
	}
	p.Status = Passive
	return true
}
