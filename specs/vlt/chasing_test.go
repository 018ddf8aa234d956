package vlt

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Each claim of chasing.go fails on a mutant that breaks what it states
// (faults.go), at the ring given with it. Several need phase 3, which no
// ring below 8 reaches (TestPhaseThreeFirstAtEight); those run with one
// initiator, processor 0, which keeps the state graph small and the
// violation reachable.
//
// Lemma 3.3 (iii) has no mutant yet: a d-active processor that turns
// c-active needs phase messages from both sides, one of them from the side
// it sent on, which half-duplex links rule out (Lemma 3.1). Random runs of
// every arrangement of 6 to 8 with relayBothWays, dActiveFollows, a
// d-active processor sending both ways or not at all, and Algorithm E on
// full-duplex links never produced one.
// Reference: 000 Lemma 3.3 (ii)–(iv), Prop. 3.4, Lemma 3.5 (ii), (iii).
func TestMutantsChasingClaims(t *testing.T) {
	cases := []struct {
		claim      string
		variant    string
		fault      fault
		ids        []int
		initiators []int
	}{
		// A relay sent both ways comes back to the active processor that
		// sent its message on, from behind, while another arrives in front.
		{"lemma-3-3-ii-c-active-not-again", "e", relayBothWays, []int{1, 2, 4, 8, 5, 7, 3, 6}, []int{0}},
		// A local maximum that turns active sends to its smaller
		// neighbour, a local minimum that may send back to it.
		{"lemma-3-3-iv-neighbours-not-head-on", "modified", maximaActiveToo, []int{1, 3, 2, 4}, nil},
		// A d-activation dropped: phase 1 ends with nothing active after
		// it and no leader (ids 1,2,5,3,4: 3 should chase 5 on).
		{"prop-3-4-no-silent-phase", "e", dActiveStops, []int{1, 2, 5, 3, 4}, nil},
		// Relays that keep their ID leave the interval between two
		// processors of one colour without that colour.
		{"lemma-3-5-ii-shared-colour-interval", "e", relayKeepsID, []int{1, 2, 4, 3, 7, 5, 6, 8}, []int{0}},
		{"lemma-3-5-iii-shared-colour-away", "e", maximaActiveToo, []int{1, 3, 2, 4, 5}, nil},
		// Issue 22's mutant: at a collision the larger value goes back
		// the way it came, into its own colour's interval. Harmless below
		// phase 3: every ring of n ≤ 6 passes every property with it.
		{"lemma-3-5-iii-shared-colour-away", "e", collisionTowardLarger, []int{1, 2, 3, 8, 4, 6, 5, 7}, []int{0}},
		// A d-active processor that chases the way the smaller message
		// was going, not back where it came from: no ring of 3 to 5 shows
		// it (every arrangement, one orientation, both variants, searched
		// once); in phase 3 two processors inaugurate.
		{"at-most-one-leader", "e", dActiveFollows, []int{1, 2, 4, 3, 7, 5, 6, 8}, []int{0}},
		{"lemma-3-5-iii-shared-colour-away", "modified", dActiveFollows, []int{1, 2, 4, 3, 7, 5, 6, 8}, []int{0}},
		// A relay that keeps its old PNUM (2b without "PNUM := p"): on
		// the smallest ring a phase ends with no processor active.
		{"prop-3-4-no-silent-phase", "e", relayKeepsPhase, []int{1, 2, 3}, nil},
		// A collision that keeps the smaller colour sends it back the way
		// it came: no ring of 3 to 5 shows it (every arrangement, one
		// orientation, both variants, searched once); in phase 3 the
		// colours do not fall as Lemma 3.7 says.
		{"lemma-3-7-colour-count", "e", collisionTakesSmaller, []int{1, 2, 4, 3, 7, 5, 6, 8}, []int{0}},
		{"lemma-3-7-colour-count", "modified", collisionTakesSmaller, []int{1, 2, 4, 3, 7, 5, 6, 8}, []int{0}},
	}
	for _, c := range cases {
		p := model.Params{N: len(c.ids), IDs: c.ids, Variant: c.variant, Orientation: make([]bool, len(c.ids)),
			Initiators: c.initiators, Claims: true}
		sys, err := build(p, c.fault)
		if err != nil {
			t.Fatal(err)
		}
		r := checker.Run(context.Background(), sys, checker.Options{MaxStates: 200000, Continue: true})
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if pr := prop(t, &r, c.claim); pr.Verdict != checker.Fail || pr.Trace == nil {
			t.Errorf("%s, fault %d, ids %v: %s is %s", c.variant, c.fault, c.ids, c.claim, pr.Verdict)
		}
	}
}

// The collision mutant leaves every property passing on every ring of
// three to six (60 arrangements of six, one orientation each: all give
// isomorphic systems), in both variants: it changes only which way a
// chase goes, and the claims that see directions need two processors of
// one colour with one of them d-active, which takes phase 3.
func TestMutantsCollisionTowardLargerSurvivesSmallRings(t *testing.T) {
	if testing.Short() {
		t.Skip("120 systems of n = 6")
	}
	for _, variant := range []string{"e", "modified"} {
		for n := 3; n <= 6; n++ {
			for _, ids := range ring.ArrangementsUpToSymmetry(n) {
				p := model.Params{N: n, IDs: ids, Variant: variant, Orientation: make([]bool, n), Claims: true}
				r := run(t, p, collisionTowardLarger)
				if got := failures(&r); len(got) > 0 {
					t.Fatalf("%s ids %v: %v fail", variant, ids, got)
				}
			}
		}
	}
}
