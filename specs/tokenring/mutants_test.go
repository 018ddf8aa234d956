package tokenring

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Every property of the token ring fails on some mutant of its rules
// (docs/mutants.md).
func TestMutantsTokenRing(t *testing.T) {
	// sendTo replaces the effect of the rules that send the token.
	sendTo := func(next func(n, i int) int, phase uint8, rules ...string) func(sys *model.System[State]) {
		return func(sys *model.System[State]) {
			for _, r := range rules {
				spectest.ReplaceDo(sys, r, func(s *State, i, _ int) bool {
					s.Local[i] = phase
					s.Token = next(len(s.Local), i)
					return true
				})
			}
		}
	}
	succ := func(n, i int) int { return (i + 1) % n }
	mutants := []spectest.Mutant[State]{
		{Name: "message direction: leaving sends the token back to the predecessor", Rule: "leave: send (token) P(i+1)", Params: params(3),
			Mutate: sendTo(func(n, i int) int { return (i + n - 1) % n }, idle, "leave"),
			Kills:  []string{"request-granted-p0", "request-granted-p1", "request-granted-p2"}},
		{Name: "bound off by one: the token is sent two processes on", Rule: "leave, pass: send (token) P(i+1)", Params: params(4),
			Mutate: sendTo(func(n, i int) int { return (i + 2) % n }, idle, "leave", "pass"),
			Kills:  []string{"request-granted-p1", "request-granted-p3", "can-enter-p1", "can-enter-p3"}},
		{Name: "reset dropped: leaving keeps the process in its critical section", Rule: "leave: in-cs → idle", Params: params(3),
			// leave needs the token (the template's only senders are its
			// holders), so a process left in its critical section leaves
			// again only when the token returns: no request starves.
			Mutate: sendTo(succ, inCS, "leave"),
			Kills:  []string{"mutual-exclusion"}},
		{Name: "guard dropped: a waiting process enters without the token", Rule: "enter: wait (token) of P(i-1)", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "enter", func(s *State, i int) bool { return s.Local[i] == waiting })
			},
			Kills: []string{"mutual-exclusion"}},
		{Name: "guard widened: a waiting process passes the token on too", Rule: "pass: an idle process passes the token", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "pass", func(s *State, i int) bool { return s.Local[i] != inCS && s.Token == i })
			},
			Kills: []string{"request-granted-p0", "request-granted-p1", "request-granted-p2"}},
		{Name: "effect dropped: entering leaves the process waiting", Rule: "enter: waiting → in-cs", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceDo(sys, "enter", func(*State, int, int) bool { return true })
			},
			Kills: []string{"request-granted-p0", "request-granted-p1", "request-granted-p2", "can-enter-p0", "can-enter-p1", "can-enter-p2"}},
		{Name: "message direction: an idle process passes the token back to its predecessor", Rule: "pass: an idle process passes the token", Params: params(3),
			Mutate: sendTo(func(n, i int) int { return (i + n - 1) % n }, idle, "pass"),
			Kills:  []string{"request-granted-p0", "request-granted-p1", "request-granted-p2"}},
		{Name: "send dropped: leaving keeps the token at the process", Rule: "leave: send (token) P(i+1)", Params: params(3),
			Mutate: sendTo(func(_, i int) int { return i }, idle, "leave"),
			Kills:  []string{"request-granted-p0", "request-granted-p1", "request-granted-p2"}},
	}
	spectest.Suite[State]{
		Section: "tokenring (002 §4.1)", IDless: true,
		Build: New, Options: checker.Options{MaxStates: 200000}, Mutants: mutants,
	}.Run(t)
}
