package vlt

import (
	"context"
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
)

// §4 rule (i) applies to a bypassed message also when the active
// processor takes it in the same step as a message from its other side.
// Leaving that case to 2b's collision (bypassRuleOnlyAlone, what the spec
// did before) breaks Lemma 3.3 (i) and the election itself. The smallest
// ring found, 1,4,2,5,3,7,6: the local minima 1 and 2 both chase towards
// 4, which relays ⟨6,1,0⟩ towards 2 while 2's ⟨5,1,1⟩ passes it; 4 acts
// on rule (ii), turns c-active in phase 2 and sends ⟨6,2⟩ to 2. At 2,
// active in phase 1 with ID 5, the bypassed ⟨6,1,0⟩ arrives together
// with ⟨7,1,0⟩, which 3's chase sent from the other side. Under Algorithm
// E with its link assumption ⟨6,1⟩ and ⟨5,1⟩ collide at 4, and ⟨7,1⟩
// meets 2 alone and is stopped (7 > 5); the mutant instead turns 2
// c-active with 7 towards 4: two adjacent c-active processors in phase 2
// sending to each other, and no leader. With processor 1 the only
// initiator the state graph stays small (the fixed rules pass there:
// testdata/counts.tsv pins the run).
//
// The run mc simulate found, n = 16, seed 1, run 1, breaks the lemma after
// 71 steps with the mutant and passes without it: there processor 6 takes
// the bypassed ⟨8,1,0⟩ with ⟨16,1,0⟩.
// Reference: 000 §4 (rules (i), (ii)), Lemma 3.3 (i), (iv).
func TestMutantsBypassRuleOneTakenWithAnother(t *testing.T) {
	ids := []int{1, 4, 2, 5, 3, 7, 6}
	p := model.Params{N: 7, IDs: ids, Variant: "modified", Orientation: make([]bool, 7), Initiators: []int{1}, Claims: true}
	m := run(t, p, bypassRuleOnlyAlone)
	for _, name := range []string{"lemma-3-3-i-c-active-apart", "lemma-3-3-iv-neighbours-not-head-on", "election-complete"} {
		if pr := prop(t, &m, name); pr.Verdict != checker.Fail || pr.Trace == nil {
			t.Errorf("bypassRuleOnlyAlone: %s is %s", name, pr.Verdict)
		}
	}
	// The shortest run to two adjacent c-active processors: phase 0 (19
	// steps), the three local minima turn active, two phase-1 messages are
	// relayed, and p2, active with 5, takes the ⟨6,1,0⟩ that bypassed it
	// from the left together with ⟨7,1,0⟩ from the right, and, counting them
	// as a collision, turns c-active next to a c-active neighbour.
	if tr := prop(t, &m, "lemma-3-3-i-c-active-apart").Trace; tr != nil {
		if last := tr.Steps[len(tr.Steps)-1].Label; len(tr.Steps) != 28 || last != "recv p2 ⟨6,1,0⟩ from p1 at left + ⟨7,1,0⟩ from p3 at right" {
			t.Errorf("bypassRuleOnlyAlone: lemma-3-3-i's trace has %d steps, the last %q; want 28, the joint take at p2", len(tr.Steps), last)
		}
	}

	const n = 16
	for _, f := range []fault{noFault, bypassRuleOnlyAlone} {
		build := func(p model.Params) (simulate.System, error) {
			sys, err := build(p, f)
			if err != nil {
				return nil, err
			}
			return simulate.Of(sys), nil
		}
		p := model.Params{N: n, IDs: DefaultIDs(n), Variant: "modified", Orientation: make([]bool, n), Claims: true}
		rep, err := simulate.Simulate(context.Background(), build, p,
			simulate.Options{Seed: 1, First: 1, Runs: 1, MaxSteps: simulate.DefaultMaxSteps(n), RandomIDs: true, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []int{10, 6, 15, 8, 5, 7, 3, 14, 1, 16, 11, 4, 12, 13, 2, 9}
		switch fail := rep.Failure; {
		case rep.Done != 1:
			t.Fatalf("fault %d: %d runs done", f, rep.Done)
		case f == noFault && fail != nil:
			t.Errorf("run 1 of seed 1 breaks %s", fail.Failure.Property)
		case f == bypassRuleOnlyAlone && (fail == nil || fail.Failure.Property != "lemma-3-3-i-c-active-apart" || fail.Failure.Step != 71 || !slices.Equal(fail.IDs, want)):
			t.Errorf("bypassRuleOnlyAlone: run 1 of seed 1 gives %+v; want lemma-3-3-i-c-active-apart broken after 71 steps, ids %v", fail, want)
		}
	}
}
