package hs

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// ProbeProc is one processor's variables in 004 (lines 1–5) but leader:
// asleep, and CWreplied and CCWreplied (Replied, indexed by port: Right is
// CW, Left is CCW).
type ProbeProc struct {
	Asleep  bool
	Replied [2]bool
}

// ProbeState is the global state of variant probe. 004's leader variable
// (NIL, TRUE, FALSE) is Out.Decided (undecided, leader, lost); Out.Leader
// stays 0, since ⟨terminate⟩ tells a processor that it lost but not who won.
type ProbeState = biring.State[ProbeProc, Msg]

// AppendTo writes the processor's canonical byte.
func (p *ProbeProc) AppendTo(buf []byte) []byte {
	var b byte
	if p.Asleep {
		b |= 1
	}
	if p.Replied[ring.Left] {
		b |= 2
	}
	if p.Replied[ring.Right] {
		b |= 4
	}
	return append(buf, b)
}

// DecodeFrom reads what AppendTo wrote (a ProbeProc has no slices, so
// shape is not needed).
func (p *ProbeProc) DecodeFrom(d *model.Decoder, _ *ProbeProc) {
	b := d.Int()
	*p = ProbeProc{Asleep: b&1 != 0, Replied: [2]bool{b&2 != 0, b&4 != 0}}
}

// AppendVars renders the processor for traces, in 004's words.
func (p *ProbeProc) AppendVars(out []model.Var, prefix string) []model.Var {
	return append(out,
		model.Var{Name: prefix + "asleep", Value: tf(p.Asleep)},
		model.Var{Name: prefix + "CWreplied", Value: tf(p.Replied[ring.Right])},
		model.Var{Name: prefix + "CCWreplied", Value: tf(p.Replied[ring.Left])})
}

// leaderVar renders 004's leader variable of processor i: NIL, TRUE or
// FALSE, the decision undecided, leader or lost.
func leaderVar(o *invariants.Outcome, i int) []model.Var {
	return []model.Var{{Name: fmt.Sprintf("p%d.leader", i), Value: [...]string{"NIL", "TRUE", "FALSE"}[o.Decided[i]]}}
}

// probe is the spec of variant probe.
type probe struct {
	net    biring.Net[ProbeProc, Msg]
	params model.Params
}

// NewProbe builds variant probe; p.Variant must be "probe" or empty.
func NewProbe(p model.Params) (*model.System[ProbeState], error) {
	_, sys, err := buildProbe(p)
	return sys, err
}

// buildProbe returns the system and the spec behind its rules, which tests
// use to build mutants.
func buildProbe(p model.Params) (*probe, *model.System[ProbeState], error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	if err := biring.CheckDuplex("hs", &p); err != nil {
		return nil, nil, err
	}
	if p.Variant != "" && p.Variant != "probe" {
		return nil, nil, fmt.Errorf("hs variant %q is not 004's probe", p.Variant)
	}
	p.Variant = "probe"
	sp := &probe{net: biring.NewNet[ProbeProc](&p, claimCaps(p.N), announces), params: p}
	return sp, biring.System[ProbeProc](biring.Spec[ProbeProc, Msg]{Name: "hs", Variant: p.Variant, Params: p,
		Init: ProbeProc{Asleep: true}, Read: readMsg, Ref: RefProbe, Winner: sp.winner(), Word: "phases",
		WordRef: "004 Theorem 13.10 (no phase beyond log n)", SentRef: "002 §5.3 (8n(1 + log n) messages)",
		Claims:      claims[ProbeProc](&p, RefProbe+" lines 27–31 (the terminate message … eventually reaches a processor that has already decided)", "⟨terminate⟩"),
		Termination: sp.termination(), OutcomeVars: leaderVar},
		[]model.Rule[ProbeState]{
			{Name: "wake", Ref: RefProbe + " lines 6–8", Guard: sp.canWake, Do: sp.wake, Footprint: sp.net.Footprint(false),
				Label: func(_ *ProbeState, i, _ int) string {
					return fmt.Sprintf("wake p%d (sends ⟨probe %d phase 0 ttl 0⟩ to CW and CCW)", i, p.IDs[i])
				}},
			{Name: "recv", Ref: RefProbe + " lines 9–31", Guard: sp.canRecv, Choices: sp.recvChoices, Do: sp.recv, Footprint: sp.net.Footprint(true),
				Label: func(s *ProbeState, i, k int) string { return sp.net.Label(s, i, k, ring.BothPorts) }},
		}), nil
}

// winner is the maximum id; the others learn only that they lost.
func (sp *probe) winner() invariants.Winner {
	w := invariants.MaxWinner(sp.params.IDs, RefProbe+" Theorem 13.8 (the processor with maximum id … declares itself to be the leader)")
	w.Unnamed = true
	return w
}

func (sp *probe) canWake(s *ProbeState, i int) bool { return s.P[i].Asleep && sp.params.IsInitiator(i) }

// wake is lines 6–8: asleep ← FALSE; send ⟨probe, id, 0, 0⟩ to CW and CCW.
func (sp *probe) wake(s *ProbeState, i, _ int) bool {
	s.P[i].Asleep = false
	return sp.sendProbes(s, i, 0)
}

// sendProbes enters phase i: ⟨probe, id, i, 2^i − 1⟩ to CW and CCW, so
// that the probe travels 2^i hops out (the ttl formula is lost in the scan).
func (sp *probe) sendProbes(s *ProbeState, i int, phase uint8) bool {
	sp.net.Enter(s, i, int(phase)+1)
	return sp.net.SendBoth(s, i, Msg{Kind: Probe, ID: sp.params.IDs[i], Phase: phase, Hops: 1<<phase - 1})
}

func (sp *probe) canRecv(s *ProbeState, i int) bool { return sp.recvChoices(s, i) > 0 }

func (sp *probe) recvChoices(s *ProbeState, i int) int {
	return sp.net.Choices(s, i, ring.BothPorts)
}

func (sp *probe) recv(s *ProbeState, i, k int) bool {
	port, m := sp.net.Recv(s, i, k, ring.BothPorts)
	p := &s.P[i]
	if p.Asleep && !sp.wake(s, i, 0) {
		return false // a processor wakes at the latest on its first message (package doc)
	}
	me := sp.params.IDs[i]
	switch {
	case m.Kind == Terminate: // lines 27–31
		if s.Out.Decided[i] != invariants.Undecided {
			return true
		}
		s.Out.Decided[i] = invariants.Lost
		return sp.net.Send(s, i, ring.Left, m)
	case m.Kind == Reply && m.ID != me: // lines 19–20
		return sp.net.Send(s, i, port.Opposite(), m)
	case m.Kind == Reply: // lines 21–26
		p.Replied[port] = true
		if !p.Replied[ring.Left] || !p.Replied[ring.Right] {
			return true
		}
		p.Replied = [2]bool{}
		return sp.sendProbes(s, i, next(sp.params.N, m.Phase))
	case m.ID == me && s.Out.Decided[i] == invariants.Undecided: // lines 10–13
		s.Out.Decided[i] = invariants.Leader
		return sp.net.Send(s, i, ring.Left, Msg{Kind: Terminate})
	case m.ID > me && m.Hops > 0: // lines 14–15
		return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Probe, ID: m.ID, Phase: m.Phase, Hops: m.Hops - 1})
	case m.ID > me: // lines 16–17
		return sp.net.Send(s, i, port, Msg{Kind: Reply, ID: m.ID, Phase: m.Phase})
	}
	return true // swallowed: a smaller id, or the leader's own second probe
}
