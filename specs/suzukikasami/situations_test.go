package suzukikasami

import (
	"testing"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// situations are what the claim of 002 §3.6 speaks of (issue 35): an
// entry into the critical section by a process that did not hold the
// token, the case that costs n messages.
var situations = map[string]spectest.Situation[State]{
	"entry-cost": {Step: func(b *State, _ model.Action, a *State) bool {
		for i := range a.Phase {
			if b.Phase[i] != invariants.InCS && a.Phase[i] == invariants.InCS && !b.Present[i] {
				return true
			}
		}
		return false
	}},
}

// The claim meets its situation on the default configuration (n = 3, one
// request per process, bag channels), and in variant recurring, and passes
// there.
// Reference: issue 35, 002 §3.6.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, situations,
		spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Chan: model.Bag, Bound: 1}, Claims: []string{"entry-cost"}},
		spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Chan: model.Bag, Variant: "recurring"}, Claims: []string{"entry-cost"}})
}
