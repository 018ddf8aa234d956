package misra

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Both claims meet their situation on the default ring (n = 3, one token
// loss) and pass there, in variant signed. The other variants are the
// faulty readings (spec_test.go), which regenerate a token that exists.
// Reference: issue 35, 002 §4.2.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, nil, spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Variant: "signed", Bound: 1},
		Claims: []string{"regenerated-only-when-lost", "loss-detected-in-one-passage"}})
}
