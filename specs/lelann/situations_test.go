package lelann

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// situations are what each claim speaks of (issue 35): ⟨elect⟩ messages
// sent for the bound, and the worst case's own state for its witness.
var situations = map[string]spectest.Situation[uniring.State]{
	"elect-messages-bound": {State: func(s *uniring.State) bool { return s.ElectSent() > 0 }},
	"elect-messages-worst-case": {State: func(s *uniring.State) bool {
		n := len(s.Decisions())
		return s.ElectSent() == n*(n+1)/2
	}},
}

// Both claims meet their situation on the default ring (n = 5, ids
// 5,4,3,2,1, descending, where the worst case is offered) and pass there.
// Reference: issue 35, 004.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, situations, spectest.Pinned{Params: model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}},
		Claims: []string{"elect-messages-bound", "elect-messages-worst-case"}})
}
