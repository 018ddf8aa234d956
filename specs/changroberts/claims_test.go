package changroberts

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// learns-leader-id (002 §5.2, elected) is not vacuous: where it is checked,
// processes do turn lost, on the leader's ⟨done⟩, and it holds there, in
// every variant; with claims off the property is absent.
func TestLearnsLeaderIDIsExercised(t *testing.T) {
	// The transitions of the graph that make a process lost; all-initiate
	// on descending ids has one run to the announcement, so n−1 of them.
	for _, c := range []struct {
		p    model.Params
		want int
	}{
		{model.Params{N: 4, IDs: ring.DescendingIDs(4), Claims: true}, 21},
		{model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Claims: true, Chan: model.Bag}, 93},
		{model.Params{N: 5, IDs: ring.DescendingIDs(5), Claims: true, Variant: "all-initiate"}, 4},
	} {
		p := c.p
		sys := spectest.Build(t, New, p)
		turned := 0
		for i := range sys.Props {
			if sys.Props[i].Name != "learns-leader-id" {
				continue
			}
			check := sys.Props[i].Trans
			sys.Props[i].Trans = func(before *uniring.State, a model.Action, after *uniring.State) bool {
				if before.Decision(a.Proc) != invariants.Lost && after.Decision(a.Proc) == invariants.Lost {
					turned++
				}
				return check(before, a, after)
			}
		}
		r := spectest.Run(t, sys, checker.Options{})
		if v := spectest.Prop(t, &r, "learns-leader-id").Verdict; v != checker.Pass || turned != c.want {
			t.Errorf("ids %v %s %s: learns-leader-id %s, %d transitions make a process lost, want %d", p.IDs, p.Chan, p.Variant, v, turned, c.want)
		}
	}
	p := model.Params{N: 4, IDs: ring.DescendingIDs(4)}
	for _, prop := range spectest.Build(t, New, p).Props {
		if prop.Name == "learns-leader-id" {
			t.Fatal("learns-leader-id checked with claims off")
		}
	}
}
