package franklin

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Every claim meets its situation on the default ring (n = 5, ids
// 5,4,3,2,1), where a process enters stage 2, and passes there.
// Reference: issue 35, 002 §5.5.1.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, nil, spectest.Pinned{
		Params: model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}},
		Claims: []string{"announcement-messages-bound", "announcement-messages", "active-halves", "election-messages-bound"}})
}
