package misra

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// situations are what each claim of 002 §4.2 speaks of (issue 35): a
// regeneration, which must follow a loss; and a survivor that has gone a
// whole round, n receipts, since the other token was lost, the most the
// claim allows.
var situations = map[string]spectest.Situation[State]{
	"regenerated-only-when-lost": {State: func(s *State) bool {
		return s.Ghost.Regenerated[Ping]+s.Ghost.Regenerated[Pong] > 0
	}},
	"loss-detected-in-one-passage": {State: func(s *State) bool { return s.Ghost.Passage == len(s.Phase) }},
}

// Both claims meet their situation on the default ring (n = 3, one token
// loss) and pass there, in variant signed. The other variants are the
// faulty readings (spec_test.go), which regenerate a token that exists.
// Reference: issue 35, 002 §4.2.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, situations, spectest.Pinned{Params: model.Params{N: 3, IDs: ring.DescendingIDs(3), Variant: "signed", Bound: 1},
		Claims: []string{"regenerated-only-when-lost", "loss-detected-in-one-passage"}})
}
