package hs

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

var claimNames = []string{"announcement-messages-bound", "announcement-messages", "phase-entrants-bound",
	"phases-bounded", "election-messages-bound"}

// Every claim meets its situation at n = 4 (ids 4,3,2,1), where the
// maximum goes through every phase to ⌈log₂ 4⌉ = 2, in variants raynal and
// probe, and passes there. Variant raynal-literal, the seed's slip, is left
// out: it elects no one, so its announcement never happens, and its other
// claims fail (a failure is never vacuous).
// Reference: issue 35, 002 §5.3, 004.
func TestClaimsMeetTheirSituation(t *testing.T) {
	ids := []int{4, 3, 2, 1}
	spectest.PinnedClaims(t, NewRaynal, nil, spectest.Pinned{Params: model.Params{N: 4, IDs: ids, Variant: "raynal"},
		Claims: append(claimNames, "messages-on-their-paths")})
	spectest.PinnedClaims(t, NewProbe, nil, spectest.Pinned{Params: model.Params{N: 4, IDs: ids, Variant: "probe"}, Claims: claimNames})
}
