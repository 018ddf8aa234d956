package changroberts

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// situations are what each claim speaks of (issue 35): ⟨elect⟩ messages
// sent for the bound, the worst case's own state for its witness, and a
// step that makes a process lost, for learns-leader-id.
var situations = map[string]spectest.Situation[uniring.State]{
	"elect-messages-bound": {State: func(s *uniring.State) bool { return s.ElectSent() > 0 }},
	"elect-messages-worst-case": {State: func(s *uniring.State) bool {
		n := len(s.Decisions())
		return s.ElectSent() == n*(n+1)/2
	}},
	"learns-leader-id": {Step: func(b *uniring.State, a model.Action, after *uniring.State) bool {
		return b.Decision(a.Proc) != invariants.Lost && after.Decision(a.Proc) == invariants.Lost
	}},
}

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
	spectest.PinnedClaims(t, New, situations, pins...)
	r := spectest.Check(t, New, model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}, Variant: "raynal-literal", Claims: true})
	if v := spectest.Prop(t, &r, "elect-messages-bound").Verdict; v != checker.Fail {
		t.Errorf("raynal-literal: elect-messages-bound is %s, want fail", v)
	}
}
