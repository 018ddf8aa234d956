// Package tokenring is mutual exclusion by a token circulating on a
// unidirectional ring (seed 002 §4.1, "A token circulating on a logical
// ring").
//
// Ring: processes 0..n-1; process i sends only to (i+1) mod n. Ids are not
// used (--ids is ignored) and there are no initiators.
//
// The token is the only message. Since there is exactly one, a channel
// holds it or not, and FIFO and bag semantics coincide; the state records
// where it is: Token = i means that it is on its way to i (in i's input
// channel), or, when i is in its critical section, held by i.
//
// State: per process its phase (idle, waiting, in-cs), and Token. The token
// starts in process 0's input channel and every process idle.
//
// One step is one action of one process. The seed gives the protocol of a
// process that wants the critical section, "wait (token) of P(i-1);
// ⟨critical section⟩; send (token) P(i+1)":
//
//   - request(i) — an environment action (the user asks; fairness never
//     forces it): idle → waiting.
//   - enter(i) — "wait (token) of P(i-1)" completes: enabled when i is
//     waiting and the token is in its input channel; i receives it and is
//     in its critical section.
//   - leave(i) — "send (token) P(i+1)": i leaves its critical section and
//     sends the token on, in one step.
//   - pass(i) — an idle process that receives the token sends it straight
//     on. The seed leaves this implicit ("the token circulates from process
//     to process around the ring"); it is the reconstruction that lets a
//     token reach a waiting process past idle ones.
//
// Footprints (partial-order reduction): Token = i is channel i, process
// i's input channel, while i is not in its critical section, and i's own
// variable while it is. enter(i) receives from channel i, leave(i) sends
// to channel i+1, pass(i) does both, request(i) touches only i's phase. No
// other process's rule reads Token while it names i, since every rule that
// does needs Token to name its own process.
//
// Properties: mutual exclusion; for every process, a request is eventually
// granted; a witness that every process can enter. The seed's claim that
// "there can be neither deadlock nor starving, as the token circulates"
// holds here under every fairness, none included: the token's route is
// forced, a waiting process cannot be skipped, and every action but
// request moves the token, so no cycle of the state graph avoids the
// entry of a waiting process.
package tokenring

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Ref is the seed section the spec comes from.
const Ref = "002 §4.1"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "seed", Doc: "002 §4.1: wait for the token, critical section, send the token on; idle processes pass it"},
}

// State is the global state.
type State struct {
	Phase invariants.Phases
	// Token is the process the token is travelling to, or the one holding
	// it in its critical section.
	Token int
}

type spec struct{ ring ring.Ring }

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("tokenring", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	if p.Initiators != nil {
		return nil, fmt.Errorf("spec tokenring has no initiators")
	}
	if p.Bound != 0 {
		return nil, fmt.Errorf("spec tokenring has no bound")
	}
	p.Variant = variant
	sp := &spec{ring: ring.Ring{N: p.N}}
	n := p.N
	return &model.System[State]{
		Spec: "tokenring", Variant: variant, Params: p, Procs: n,
		Init: []State{{Phase: make(invariants.Phases, n)}},
		Rules: []model.Rule[State]{
			{Name: "request", Ref: Ref + " (the user asks)", Env: true, Guard: sp.idle, Do: sp.request,
				Footprint: func(i int) model.Footprint { return model.Footprint{Proc: i} }},
			{Name: "enter", Ref: Ref + " wait (token) of P(i-1)", Guard: sp.canEnter, Do: sp.enter, Label: sp.enterLabel,
				Footprint: func(i int) model.Footprint { return model.Footprint{Proc: i, Recv: []int{i}} }},
			{Name: "leave", Ref: Ref + " send (token) P(i+1)", Guard: sp.inCS, Do: sp.send, Label: sp.sendLabel("leave"),
				Footprint: func(i int) model.Footprint { return model.Footprint{Proc: i, Send: []int{sp.ring.Succ(i)}} }},
			{Name: "pass", Ref: Ref + " (the token circulates)", Guard: sp.canPass, Do: sp.send, Label: sp.sendLabel("pass"),
				Footprint: func(i int) model.Footprint {
					return model.Footprint{Proc: i, Recv: []int{i}, Send: []int{sp.ring.Succ(i)}}
				}},
		},
		Chans: ring.Net{Ring: sp.ring}.Semantics(), // FIFO, unbounded: channel i leads into process i
		Props: invariants.MutexProperties(n, Ref, Ref+" (neither deadlock nor starving)", func(s *State) invariants.Phases { return s.Phase }),
		Copy: func(d, s *State) {
			d.Phase = append(d.Phase[:0], s.Phase...)
			d.Token = s.Token
		},
		Encode: func(buf []byte, s *State) []byte { return model.AppendUint(s.Phase.AppendTo(buf), uint64(s.Token)) },
		Decode: func(data []byte, s *State) error {
			if len(s.Phase) != n {
				s.Phase = make(invariants.Phases, n)
			}
			d := model.NewDecoder(data)
			s.Phase.DecodeFrom(&d)
			s.Token = d.Int()
			return d.Finish()
		},
		Vars: func(s *State) []model.Var {
			where := fmt.Sprintf("to p%d", s.Token)
			if s.Phase[s.Token] == invariants.InCS {
				where = fmt.Sprintf("held by p%d", s.Token)
			}
			return append(s.Phase.Vars(nil), model.Var{Name: "token", Value: where})
		},
	}, nil
}

func (sp *spec) idle(s *State, i int) bool { return s.Phase[i] == invariants.Idle }

func (sp *spec) inCS(s *State, i int) bool { return s.Phase[i] == invariants.InCS }

func (sp *spec) canEnter(s *State, i int) bool {
	return s.Phase[i] == invariants.Waiting && s.Token == i
}

func (sp *spec) canPass(s *State, i int) bool { return s.Phase[i] == invariants.Idle && s.Token == i }

func (sp *spec) request(s *State, i, _ int) bool {
	s.Phase[i] = invariants.Waiting
	return true
}

func (sp *spec) enter(s *State, i, _ int) bool {
	s.Phase[i] = invariants.InCS
	return true
}

// send is leave and pass: i is idle afterwards, the token on its way on.
func (sp *spec) send(s *State, i, _ int) bool {
	s.Phase[i] = invariants.Idle
	s.Token = sp.ring.Succ(i)
	return true
}

func (sp *spec) enterLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("enter p%d (receives the token)", i)
}

func (sp *spec) sendLabel(verb string) func(*State, int, int) string {
	return func(_ *State, i, _ int) string {
		return fmt.Sprintf("%s p%d (sends the token to p%d)", verb, i, sp.ring.Succ(i))
	}
}
