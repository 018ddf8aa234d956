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
	literal := model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}, Variant: "raynal-literal", Claims: true}
	r := spectest.Check(t, New, literal)
	bound := spectest.Prop(t, &r, "elect-messages-bound")
	if bound.Verdict != checker.Fail || bound.Trace == nil {
		t.Fatalf("raynal-literal: elect-messages-bound is %s, want fail with its trace", bound.Verdict)
	}
	// Its trace replays to a state that has sent one ⟨elect⟩ more than
	// n(n+1)/2 = 15, and no state before it had.
	sys := spectest.Build(t, New, literal)
	var actions []model.Action
	for _, step := range bound.Trace.Steps {
		actions = append(actions, step.Action)
	}
	s, err := checker.Replay(sys, bound.Trace.Init, actions)
	if err != nil {
		t.Fatal(err)
	}
	if s.ElectSent() != 16 {
		t.Fatalf("raynal-literal: the trace ends having sent %d ⟨elect⟩ messages, want 16", s.ElectSent())
	}
	before, err := checker.Replay(sys, bound.Trace.Init, actions[:len(actions)-1])
	if err != nil || before.ElectSent() != 15 {
		t.Fatalf("raynal-literal: the step before the trace's last had sent %d (%v), want 15", before.ElectSent(), err)
	}
}
