package changroberts

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// Every claim meets its situation on the default ring (n = 5, ids
// 5,4,3,2,1, descending, where the worst case is offered), in variants
// canonical and all-initiate, and passes there. In raynal-literal, the
// seed's slip, elect-messages-bound fails on that ring: a participant
// that receives a smaller id sends its own again.
// Reference: issue 35, 002 §5.2.
func TestClaimsMeetTheirSituation(t *testing.T) {
	var pins []spectest.Pinned
	for _, v := range []string{"canonical", "all-initiate"} {
		pins = append(pins, spectest.Pinned{Params: model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}, Variant: v},
			Claims: []string{"elect-messages-bound", "elect-messages-worst-case", "learns-leader-id"}})
	}
	spectest.PinnedClaims(t, New, nil, pins...)
	r := spectest.Check(t, New, model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}, Variant: "raynal-literal", Claims: true})
	if v := spectest.Prop(t, &r, "elect-messages-bound").Verdict; v != checker.Fail {
		t.Errorf("raynal-literal: elect-messages-bound is %s, want fail", v)
	}
}
