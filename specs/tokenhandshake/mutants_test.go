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
		{Name: "guard dropped: a ready process grants without the token", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "grant", func(s *State, i int) bool { return s.Local[i] == ready })
			},
			Kills: []string{"mutual-exclusion", "cs-holds-token"}},
		{Name: "effect dropped: granting leaves the process ready", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceDo(sys, "grant", func(*State, int, int) bool { return true })
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2", "can-enter-p0", "can-enter-p1", "can-enter-p2"}},
		{Name: "guard widened: a ready process passes the token on too", Params: params(3),
			Mutate: func(sys *model.System[State]) {
				spectest.ReplaceGuard(sys, "pass", func(s *State, i int) bool { return s.Local[i] <= ready && s.Token == i })
			},
			Kills: []string{"ack-granted-p0", "ack-granted-p1", "ack-granted-p2"}},
	}
	if survivors := spectest.Kill(t, New, checker.Options{MaxStates: 200000}, mutants); len(survivors) > 0 {
		t.Errorf("no mutant kills %v (docs/mutants.md)", survivors)
	}
}
