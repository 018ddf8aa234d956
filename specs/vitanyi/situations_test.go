package vitanyi

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Every claim meets its situation and passes: the quadratic cap and its
// witness on ascending ids with unbounded drift (pow2; scaled needs a
// drift), the paper's bounds with drift 1 in each variant
// (messages-below-5n is scaled's).
// Reference: issue 35, 001 §2, §3.
func TestClaimsMeetTheirSituation(t *testing.T) {
	pins := []spectest.Pinned{{Params: model.Params{N: 4, IDs: []int{1, 2, 3, 4}},
		Claims: []string{"messages-quadratic-cap", "messages-quadratic-reached"}}}
	for _, v := range Variants {
		pins = append(pins, spectest.Pinned{Params: model.Params{N: 4, IDs: []int{4, 3, 2, 1}, Variant: v.Name, Drift: 1},
			Claims: []string{"messages-quadratic-cap", "messages-within-bound", "bits-within-bound", "messages-below-5n"}})
	}
	spectest.PinnedClaims(t, New, nil, pins...)
}
