package lelann

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Both claims meet their situation on the default ring (n = 5, ids
// 5,4,3,2,1, descending, where the worst case is offered) and pass there.
// Reference: issue 35, 004.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, nil, spectest.Pinned{Params: model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}},
		Claims: []string{"elect-messages-bound", "elect-messages-worst-case"}})
}
