package vlt

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// pinnedRing is a ring on which the claims it names meet their situation
// (situations_test.go) in both variants, unless only says otherwise.
type pinnedRing struct {
	ids        []int
	initiators []int
	// long rings are explored only without -short.
	long   map[string]bool
	claims []string
}

// pinnedRings pin, for each claim of 000 §3 and §4, a ring on which it is
// put to the test; the package doc lists them. The default ring (n = 5,
// ids 1,5,2,4,3) never goes past phase 1. One orientation each: every
// assignment gives an isomorphic system (TestOrientationsIsomorphic).
// Found by mc simulate with random ids at n = 5 to 16, then the smallest n
// at which random runs met the situation, and one initiator where all of
// them made the exploration too large for a test.
var pinnedRings = []pinnedRing{
	{ids: []int{1, 5, 2, 4, 3}, claims: []string{
		"lemma-3-1-arrival-side", "lemma-3-5-i-shared-colour", "lemma-3-5-ii-shared-colour-interval",
		"lemma-3-5-iii-shared-colour-away", "prop-3-6-i-one-inauguration", "sec-4-inaugurations",
		"prop-3-6-ii-one-colour", "sec-3-phase-1-minima", "prop-3-6-iii-same-id", "prop-3-9-one-per-link",
		"prop-3-9-messages-per-phase", "prop-4-2-messages-per-phase", "prop-3-9-phase-0-messages", "prop-4-2-bypass"}},
	// Phase 2: three local minima, two of one colour.
	{ids: []int{2, 5, 3, 1, 4}, claims: []string{
		"lemma-3-2-colours-shrink", "prop-3-4-no-silent-phase", "lemma-3-7-colour-count", "prop-3-9-phases"}},
	// Two neighbours active in phase 2.
	{ids: []int{7, 2, 1, 6, 3, 5, 4}, initiators: []int{0}, claims: []string{"lemma-3-3-iv-neighbours-not-head-on"}},
	// Four local minima whose phase-1 messages collide pairwise, at 5 and
	// at 6: both turn c-active in phase 2 (n = 8 is the least: two
	// collisions take four phase-1 messages).
	{ids: []int{4, 1, 7, 3, 6, 5, 8, 2}, initiators: []int{0}, long: map[string]bool{"modified": true},
		claims: []string{"lemma-3-3-i-c-active-apart"}},
	// Phase 3 with a c-active processor, after c- and d-active ones in
	// phase 2 (random runs at n = 8 met none).
	{ids: []int{9, 5, 1, 6, 2, 4, 3, 8, 7}, initiators: []int{0}, long: map[string]bool{"e": true, "modified": true},
		claims: []string{"lemma-3-3-ii-c-active-not-again", "lemma-3-3-iii-d-active-not-c-active"}},
}

// Every claim of 000 §3 and §4 passes on a ring on which its situation
// arises, in each variant, and every claim has such a ring.
// Reference: issue 35, 000 §3, §4.
func TestClaimsMeetTheirSituation(t *testing.T) {
	var pins []spectest.Pinned
	for _, variant := range []string{"e", "modified"} {
		for _, ring := range pinnedRings {
			n := len(ring.ids)
			pins = append(pins, spectest.Pinned{Params: model.Params{N: n, IDs: ring.ids, Variant: variant,
				Orientation: make([]bool, n), Initiators: ring.initiators}, Claims: ring.claims, Long: ring.long[variant]})
		}
	}
	spectest.PinnedClaims(t, New, nil, pins...)
}
