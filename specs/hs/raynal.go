package hs

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// Position is 002 §5.3's type position.
type Position uint8

const (
	NotInvolved Position = iota
	Candidate
	Lost
	Elected
)

func (p Position) String() string {
	return [...]string{"not_involved", "candidate", "lost", "elected"}[p]
}

//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type RaynalProc

// RaynalProc is one process's variables in 002 §5.3. Phase stands for
// lgmax = 2^Phase.
type RaynalProc struct {
	State Position
	Phase uint8 `mc:"lgmax,show=lgmax"`
	// Waiting is true while the candidate loop is blocked in "wait nresp
	// = 2".
	Waiting bool
	NResp   uint8 `mc:"nresp"`
	RespOK  bool  `mc:",show=tf"`
}

// RaynalState is the global state of variants raynal and raynal-literal.
// Out holds 002's winner (Out.Leader) and each process's decision.
type RaynalState = biring.State[RaynalProc, Msg]

// lgmax renders Phase as 002's lgmax = 2^Phase.
func lgmax(phase uint8) string { return fmt.Sprint(1 << phase) }

// become sets p's state to a position other than candidate. lgmax is read
// only by the candidate loop, and initiate resets it, so once p is no longer
// a candidate its value is dead and is reset too (package doc, "Dead
// values").
func (p *RaynalProc) become(pos Position) { p.State, p.Phase = pos, 0 }

// raynal is the spec of variants raynal and raynal-literal.
type raynal struct {
	net     biring.Net[RaynalProc, Msg]
	params  model.Params
	literal bool
}

// NewRaynal builds variant raynal (the default) or raynal-literal.
func NewRaynal(p model.Params) (*model.System[RaynalState], error) {
	_, sys, err := buildRaynal(p)
	return sys, err
}

// buildRaynal returns the system and the spec behind its rules, which tests
// use to build mutants.
func buildRaynal(p model.Params) (*raynal, *model.System[RaynalState], error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	if err := biring.CheckDuplex("hs", &p); err != nil {
		return nil, nil, err
	}
	variant, err := model.PickVariant("hs", Variants, p.Variant)
	if err != nil {
		return nil, nil, err
	}
	if variant != "raynal" && variant != "raynal-literal" {
		return nil, nil, fmt.Errorf("hs variant %s is not one of 002 §5.3's", variant)
	}
	p.Variant = variant
	sp := &raynal{net: biring.NewNet[RaynalProc](&p, claimCaps(p.N), announces), params: p, literal: variant == "raynal-literal"}
	winner := invariants.MaxWinner(p.IDs, RefRaynal+" (candidates are tested against ever larger sets until all are consulted)")
	return sp, biring.System[RaynalProc](biring.Spec[RaynalProc, Msg]{Name: "hs", Variant: variant, Params: p,
		Init: RaynalProc{RespOK: true}, Read: readMsg, Ref: RefRaynal, Winner: winner, Word: "phases",
		WordRef: "004 Theorem 13.10 (no phase beyond log n)", SentRef: "002 §5.3 (8n(1 + log n) messages)",
		Claims: raynalClaims(&p), Termination: sp.termination()},
		[]model.Rule[RaynalState]{
			{Name: "initiate", Ref: RefRaynal + " when decision (initiate_election)", Guard: sp.canInitiate, Do: sp.initiate, Footprint: sp.net.Footprint(false),
				Label: func(_ *RaynalState, i, _ int) string {
					return fmt.Sprintf("initiate p%d (sendLR ⟨candidature %d lg 0 lgmax 1⟩)", i, p.IDs[i])
				}},
			{Name: "resume", Ref: RefRaynal + " wait nresp = 2; if …; lgmax ← lgmax * 2", Guard: sp.canResume, Do: sp.resume, Footprint: sp.net.Footprint(false),
				Label: func(s *RaynalState, i, _ int) string {
					return fmt.Sprintf("resume p%d (nresp = 2, respOK = %s)", i, tf(s.P[i].RespOK))
				}},
			{Name: "recv", Ref: RefRaynal + " when received", Guard: sp.canRecv, Choices: sp.recvChoices, Do: sp.recv, Footprint: sp.net.Footprint(true),
				Label: func(s *RaynalState, i, k int) string { return sp.net.Label(s, i, k, ring.BothPorts) }},
		}), nil
}

// raynalClaims are the claims of both variants and, with --claims, 002
// §5.3's paths of the messages (onPathsClaim), which 004's probes do not
// follow.
func raynalClaims(p *model.Params) []model.Property[RaynalState] {
	c := claims[RaynalProc](p, RefRaynal+" (pass (ended, my_number))", "⟨ended⟩")
	if !p.Claims {
		return c
	}
	return append(c, onPathsClaim(p))
}

// canInitiate: an initiator decides to start an election while it has
// taken no part in one.
func (sp *raynal) canInitiate(s *RaynalState, i int) bool {
	p := &s.P[i]
	return sp.params.IsInitiator(i) && p.State == NotInvolved && !s.Out.Knows(i)
}

// initiate is the body of "when decision (initiate_election)" up to its
// first wait: state ← candidate; lgmax ← 1; then the loop's first round.
func (sp *raynal) initiate(s *RaynalState, i, _ int) bool {
	p := &s.P[i]
	p.State, p.Phase = Candidate, 0
	return sp.round(s, i)
}

// round is one turn of the candidate loop: nresp ← 0; respOK ← T;
// sendLR (candidature, my_number, 0, lgmax); then wait.
func (sp *raynal) round(s *RaynalState, i int) bool {
	p := &s.P[i]
	p.NResp, p.RespOK, p.Waiting = 0, true, true
	sp.net.Enter(s, i, int(p.Phase)+1)
	return sp.net.SendBoth(s, i, Msg{Kind: Candidature, ID: sp.params.IDs[i], Phase: p.Phase})
}

func (sp *raynal) canResume(s *RaynalState, i int) bool { return s.P[i].Waiting && s.P[i].NResp == 2 }

// resume is the loop after "wait nresp = 2": the candidate loses on an
// unfavourable response (raynal-literal: on a favourable one, as printed),
// and goes round again, lgmax doubled, while it is still a candidate.
func (sp *raynal) resume(s *RaynalState, i, _ int) bool {
	p := &s.P[i]
	lost := p.RespOK == sp.literal
	p.Waiting, p.NResp, p.RespOK = false, 0, true
	if lost {
		p.become(Lost)
	}
	if p.State != Candidate {
		return true
	}
	p.Phase = next(sp.params.N, p.Phase)
	return sp.round(s, i)
}

func (sp *raynal) canRecv(s *RaynalState, i int) bool { return sp.recvChoices(s, i) > 0 }

func (sp *raynal) recvChoices(s *RaynalState, i int) int {
	return sp.net.Choices(s, i, ring.BothPorts)
}

func (sp *raynal) recv(s *RaynalState, i, k int) bool {
	port, m := sp.net.Recv(s, i, k, ring.BothPorts)
	p := &s.P[i]
	me := sp.params.IDs[i]
	switch m.Kind {
	case Response:
		if m.ID != me {
			return sp.net.Send(s, i, port.Opposite(), m) // pass
		}
		if p.Waiting { // else nresp and respOK are dead until the next round resets them
			p.NResp++
			p.RespOK = p.RespOK && m.OK
		}
		return true
	case Ended:
		if !s.Out.Hear(i, m.ID, me) {
			return true // back at the winner
		}
		p.become(NotInvolved)
		return sp.net.Send(s, i, port.Opposite(), m) // pass
	}
	switch {
	case m.ID < me:
		if !sp.net.Send(s, i, port, Msg{Kind: Response, ID: m.ID}) { // respond (response, F, number)
			return false
		}
		if p.State == NotInvolved {
			return sp.initiate(s, i, 0)
		}
		return true
	case m.ID > me:
		p.become(Lost)
		if lg := m.Hops + 1; lg < 1<<m.Phase {
			return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Candidature, ID: m.ID, Phase: m.Phase, Hops: lg}) // pass
		}
		return sp.net.Send(s, i, port, Msg{Kind: Response, ID: m.ID, OK: true}) // respond (response, T, number)
	}
	if p.State == Elected {
		return true
	}
	p.become(Elected)
	s.Out.Learn(i, me, me)
	return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Ended, ID: me}) // pass (ended, my_number)
}
