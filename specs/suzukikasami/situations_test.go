package suzukikasami

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The claim meets its situation on the default configuration (n = 3, one
// request per process, bag channels), and in variant recurring, and passes
// there.
// Reference: issue 35, 002 §3.6.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, nil,
		spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Chan: model.Bag, Bound: 1}, Claims: []string{"entry-cost"}},
		spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Chan: model.Bag, Variant: "recurring"}, Claims: []string{"entry-cost"}})
}
