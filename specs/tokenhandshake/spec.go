// Package tokenhandshake is the token ring of tokenring (seed 002 §4.1)
// as a user might write it with a handshake between each process and its
// user: the user raises a request, the process acknowledges it, grants
// the critical section when the token reaches it, and sends the token on
// once the user lowers the request. It is written as a process template
// (package tokentemplate), so mc check --every-n decides it for every ring
// size (docs/every-n.md).
//
// Ring: processes 0..n-1; process i sends the token only to (i+1) mod n.
// No ids, no initiators. The token is the only message; Token = i means
// that it is in process i's input channel or kept by i.
//
// A process's local states and actions:
//
//   - ask(i), an environment action (the user raises its request):
//     idle → asked.
//   - ack(i): the process acknowledges the request, with or without the
//     token: asked → ready.
//   - grant(i), with the token: ready → in-cs, the user is in its
//     critical section.
//   - release(i), an environment action (the user lowers its request):
//     in-cs → done.
//   - finish(i), with the token: done → idle, sending the token on.
//   - pass(i), with the token: an idle process, or one whose request is
//     not yet acknowledged, sends the token on and stays as it is.
//
// Properties: mutual exclusion; a process in its critical section holds
// the token; for every process, an acknowledged request is eventually
// granted; a witness that every process can enter. A request that is
// never acknowledged is never granted: nothing forces ack (no fairness of
// mc's, or the cutoff theorems', makes an enabled action fire), so "asked
// leads to in-cs" is not claimed.
//
// Every move but finish and pass goes up the order idle, asked, ready,
// in-cs, done, so a process cannot act for ever without sending the
// token: every infinite run passes it round the ring infinitely often,
// and mc's checks without fairness are the theorems' (docs/every-n.md).
package tokenhandshake

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tokentemplate"
)

// Ref is the seed section the ring comes from; the handshake is this
// spec's own.
const Ref = "002 §4.1"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "handshake", Doc: "002 §4.1's ring with a four-phase request/acknowledge handshake between each user and its process"},
}

// State is the global state: each process's local state and Token.
type State = tokentemplate.State

// The local states of Template.
const (
	idle = iota
	asked
	ready
	inCS
	done
)

// Template is the process.
var Template = &tokentemplate.Template{
	Name: "tokenhandshake", Ref: Ref, Var: "phase",
	States: []string{idle: "idle", asked: "asked", ready: "ready", inCS: "in-cs", done: "done"},
	Actions: []tokentemplate.Action{
		{Name: "ask", Ref: Ref + " (the user raises its request)", Env: true, Moves: []tokentemplate.Move{{From: idle, To: asked}}},
		{Name: "ack", Ref: Ref + " (the process acknowledges)", Moves: []tokentemplate.Move{{From: asked, To: ready}}},
		{Name: "grant", Ref: Ref + " wait (token) of P(i-1)", Token: tokentemplate.Held, Moves: []tokentemplate.Move{{From: ready, To: inCS}}},
		{Name: "release", Ref: Ref + " (the user lowers its request)", Env: true, Moves: []tokentemplate.Move{{From: inCS, To: done}}},
		{Name: "finish", Ref: Ref + " send (token) P(i+1)", Token: tokentemplate.Held, Sends: true, Moves: []tokentemplate.Move{{From: done, To: idle}}},
		{Name: "pass", Ref: Ref + " (the token circulates)", Token: tokentemplate.Held, Sends: true,
			Moves: []tokentemplate.Move{{From: idle, To: idle}, {From: asked, To: asked}}},
	},
	Props: []tokentemplate.Prop{
		{Name: "mutual-exclusion", Ref: Ref, Doc: "at most one process is in its critical section", Shape: tokentemplate.Never,
			Atoms: []tokentemplate.Atom{{States: []int{inCS}}, {States: []int{inCS}}}},
		{Name: "cs-holds-token", Ref: Ref, Doc: "a process in its critical section holds the token", Shape: tokentemplate.Never,
			Atoms: []tokentemplate.Atom{{States: []int{inCS}, Token: tokentemplate.Free}}},
		{Name: "ack-granted", Ref: Ref + " (the token circulates)", Doc: "whenever {i} has acknowledged a request it eventually grants it", Shape: tokentemplate.LeadsTo,
			Atoms: []tokentemplate.Atom{{States: []int{ready}}, {States: []int{inCS}}}},
		{Name: "can-enter", Ref: Ref, Doc: "some run lets {i}'s user enter its critical section", Shape: tokentemplate.Reachable,
			Atoms: []tokentemplate.Atom{{States: []int{inCS}}}},
	},
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("tokenhandshake", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	if p.Initiators != nil {
		return nil, fmt.Errorf("spec tokenhandshake has no initiators")
	}
	if p.Bound != 0 {
		return nil, fmt.Errorf("spec tokenhandshake has no bound")
	}
	p.Variant = variant
	return Template.System(p)
}
