package tokenhandshake

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Every property of the handshake ring fails on some mutant of its rules
// (docs/mutants.md).
func TestMutantsTokenHandshake(t *testing.T) {
	mutants := []spectest.Mutant[State]{
		{Name: "guard dropped: a ready process grants without the token", Rule: "grant: wait (token) of P(i-1)", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "grant", func(s *State, i int) bool { return s.Local[i] == ready })
			},
			Kills: []string{"mutual-exclusion", "cs-holds-token"}},
		{Name: "effect dropped: granting leaves the process ready", Rule: "grant: ready → in-cs", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceDo(sys, "grant", func(*State, int, int) bool { return true })
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2", "can-enter-p0", "can-enter-p1", "can-enter-p2"}},
		{Name: "guard widened: a ready process passes the token on too", Rule: "pass: an idle (or not yet ready) process passes the token", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "pass", func(s *State, i int) bool { return s.Local[i] <= ready && s.Token == i })
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2"}},
		{Name: "message direction: finishing sends the token back to the predecessor", Rule: "finish: send (token) P(i+1)", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceDo(sys, "finish", func(s *State, i, _ int) bool {
					s.Local[i] = idle
					s.Token = (i + len(s.Local) - 1) % len(s.Local)
					return true
				})
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2"}},
		{Name: "send dropped: finishing keeps the token at the process", Rule: "finish: send (token) P(i+1)", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceDo(sys, "finish", func(s *State, i, _ int) bool {
					s.Local[i] = idle
					return true
				})
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2"}},
	}
	spectest.Suite[State]{
		Section: "tokenhandshake (002 §4.1, with a handshake)", IDless: true,
		Build: New, Options: checker.Options{MaxStates: 200000}, Mutants: mutants,
	}.Run(t)
}
