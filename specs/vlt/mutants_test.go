package vlt

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// Every claim can fail: a spec with a deliberate fault (faults.go), or
// Algorithm E on the links it was not written for, violates it, and the
// checker says so with a trace.
func TestEveryClaimCatchesAMutant(t *testing.T) {
	cases := []struct {
		claim   string
		variant string
		links   model.Duplex
		fault   fault
		ids     []int
	}{
		{"lemma-3-1-arrival-side", "e", model.FullDuplex, noFault, []int{1, 3, 2, 4}},
		{"lemma-3-1-arrival-side", "e", model.HalfDuplex, relayBothWays, []int{1, 2, 3}},
		{"lemma-3-2-colours-shrink", "e", model.HalfDuplex, chaseWithOwnID, []int{1, 2, 5, 3, 4}},
		{"lemma-3-2-colours-shrink", "modified", model.FullDuplex, chaseWithOwnID, []int{1, 2, 5, 3, 4}},
		{"lemma-3-3-i-c-active-apart", "e", model.HalfDuplex, relayBothWays, []int{1, 2, 5, 3, 4}},
		// Lemma 3.3 (i) in the modified version: TestMutantsBypassRuleOneTakenWithAnother.
		{"lemma-3-5-i-shared-colour", "e", model.HalfDuplex, maximaActiveToo, []int{1, 3, 2, 4}},
		{"lemma-3-5-i-shared-colour", "modified", model.FullDuplex, maximaActiveToo, []int{1, 3, 2, 4}},
		{"prop-3-6-i-one-inauguration", "e", model.FullDuplex, noFault, []int{1, 3, 2, 4}},
		{"prop-3-6-i-one-inauguration", "e", model.HalfDuplex, relayBothWays, []int{1, 2, 3}},
		{"sec-4-inaugurations", "modified", model.FullDuplex, relayKeepsID, []int{1, 2, 4, 3, 5}},
		{"prop-3-6-ii-one-colour", "e", model.HalfDuplex, maximaActiveToo, []int{1, 2, 4, 3, 5}},
		{"prop-3-6-ii-one-colour", "modified", model.FullDuplex, maximaActiveToo, []int{1, 3, 2, 4}},
		{"sec-3-phase-1-minima", "e", model.HalfDuplex, maximaActiveToo, []int{1, 3, 2, 4}},
		{"sec-3-phase-1-minima", "modified", model.FullDuplex, maximaActiveToo, []int{1, 3, 2, 4}},
		{"prop-3-6-iii-same-id", "e", model.HalfDuplex, noIDOnEqualCollision, []int{1, 3, 2, 4}},
		{"prop-3-6-iii-same-id", "modified", model.FullDuplex, relayKeepsID, []int{1, 2, 3}},
		{"lemma-3-7-colour-count", "e", model.HalfDuplex, chaseOwnValueOn, []int{1, 2, 3}},
		{"lemma-3-7-colour-count", "modified", model.FullDuplex, chaseOwnValueOn, []int{1, 2, 3}},
		{"prop-3-9-phases", "e", model.HalfDuplex, chaseOwnValueOn, []int{1, 2, 3}},
		{"prop-3-9-one-per-link", "e", model.FullDuplex, noFault, []int{1, 3, 2, 4}},
		{"prop-3-9-one-per-link", "e", model.HalfDuplex, relayBothWays, []int{1, 2, 3}},
		{"prop-3-9-messages-per-phase", "e", model.HalfDuplex, relayBothWays, []int{1, 2, 3}},
		{"prop-4-2-messages-per-phase", "modified", model.FullDuplex, relayBothWays, []int{1, 2, 3}},
		{"prop-3-9-phase-0-messages", "e", model.HalfDuplex, extraPhase0, []int{1, 2, 3}},
		{"no-same-phase-bypass", "e", model.FullDuplex, noFault, []int{1, 3, 2, 4}},
		{"leader-elected", "e", model.HalfDuplex, extraPhase0, []int{1, 2, 3}},
		{"eventually-leader", "e", model.HalfDuplex, extraPhase0, []int{1, 2, 3}},
		{"election-terminates", "modified", model.FullDuplex, announcementBounces, []int{1, 2, 3}},
		{"decision-stable", "modified", model.FullDuplex, decisionReset, []int{1, 2, 3}},
		// §4 rule (i) is needed: without it two processors become leaders.
		{"at-most-one-leader", "modified", model.FullDuplex, activeKeepsBypass, []int{1, 3, 2, 4, 5}},
	}
	for _, c := range cases {
		p := model.Params{N: len(c.ids), IDs: c.ids, Variant: c.variant, Duplex: c.links, Orientation: make([]bool, len(c.ids)), Claims: true}
		sys, err := build(p, c.fault)
		if err != nil {
			t.Fatal(err)
		}
		r := checker.Run(context.Background(), sys, checker.Options{MaxStates: 100000, Continue: true})
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if pr := prop(t, &r, c.claim); pr.Verdict != checker.Fail || (pr.Trace == nil && pr.Kind != model.Witness) {
			t.Errorf("%s, %s links, fault %d, ids %v: %s is %s", c.variant, c.links, c.fault, c.ids, c.claim, pr.Verdict)
		}
	}
}

// Ghosts never influence behaviour: erasing them gives the plain state
// graph, for both variants on both kinds of links.
func TestGhostErasure(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{1, 3, 2, 4}},
		{N: 4, IDs: []int{1, 3, 2, 4}, Duplex: model.FullDuplex},
		{N: 5, IDs: DefaultIDs(5), Variant: "modified", Orientation: make([]bool, 5)},
		{N: 5, IDs: []int{1, 2, 4, 3, 5}, Orientation: []bool{true, false, false, true, false}, Initiators: []int{2}},
	} {
		plain, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		p.Claims = true
		ghosted, _ := New(p)
		if err := checker.CheckErasure(context.Background(), ghosted, plain); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
}
