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
// starts in process 0's input channel and every process idle. The spec is
// written as a process template (package tokentemplate, Template below),
// which is what lets mc check --every-n decide its properties for every
// ring size.
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
// i's input channel. enter(i) reads channel i, leave(i) reads it and sends
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

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tokentemplate"
)

// Ref is the seed section the spec comes from.
const Ref = "002 §4.1"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "seed", Doc: "002 §4.1: wait for the token, critical section, send the token on; idle processes pass it"},
}

// State is the global state: per process its phase, as a local state of
// Template (idle, waiting, in-cs), and Token.
type State = tokentemplate.State

// The local states of Template.
const (
	idle = iota
	waiting
	inCS
)

// liveRef cites the seed's claim for the liveness properties.
const liveRef = Ref + " (neither deadlock nor starving)"

// Template is the process of the token ring: the spec is this template at
// each ring size (package tokentemplate), and mc check --every-n decides
// its properties for every n (docs/every-n.md).
var Template = &tokentemplate.Template{
	Name: "tokenring", Ref: Ref, Var: "phase",
	States: []string{idle: "idle", waiting: "waiting", inCS: "in-cs"},
	Actions: []tokentemplate.Action{
		{Name: "request", Ref: Ref + " (the user asks)", Env: true, Moves: []tokentemplate.Move{{From: idle, To: waiting}}},
		{Name: "enter", Ref: Ref + " wait (token) of P(i-1)", Token: tokentemplate.Held, Moves: []tokentemplate.Move{{From: waiting, To: inCS}}},
		{Name: "leave", Ref: Ref + " send (token) P(i+1)", Token: tokentemplate.Held, Sends: true, Moves: []tokentemplate.Move{{From: inCS, To: idle}}},
		{Name: "pass", Ref: Ref + " (the token circulates)", Token: tokentemplate.Held, Sends: true, Moves: []tokentemplate.Move{{From: idle, To: idle}}},
	},
	Props: []tokentemplate.Prop{
		{Name: "mutual-exclusion", Ref: Ref, Doc: "at most one process is in its critical section", Shape: tokentemplate.Never,
			Atoms: []tokentemplate.Atom{{States: []int{inCS}}, {States: []int{inCS}}}},
		{Name: "request-granted", Ref: liveRef, Doc: "whenever {i} waits for the critical section it eventually enters it", Shape: tokentemplate.LeadsTo,
			Atoms: []tokentemplate.Atom{{States: []int{waiting}}, {States: []int{inCS}}}},
		{Name: "can-enter", Ref: liveRef, Doc: "some run lets {i} enter its critical section", Shape: tokentemplate.Reachable,
			Atoms: []tokentemplate.Atom{{States: []int{inCS}}}},
	},
}

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
	return Template.System(p)
}
