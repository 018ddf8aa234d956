package lelann

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// The state counts pinned in testdata/counts.tsv, full and reduced.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// Every property holds for every arrangement of n ≤ 6, and with a single
// initiator (the others wake up on their first message) for n ≤ 5 on bags.
func TestPassesEveryArrangement(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for _, ids := range ring.Arrangements(n) {
			if r := spectest.Check(t, New, model.Params{N: n, IDs: ids}); r.Verdict != checker.Pass {
				t.Fatalf("ids %v: %s, failure %+v", ids, r.Verdict, r.Failure())
			}
		}
	}
	for _, ids := range ring.Arrangements(5) {
		if r := spectest.Check(t, New, model.Params{N: 5, IDs: ids, Chan: model.Bag, Initiators: []int{1}}); r.Verdict != checker.Pass {
			t.Fatalf("bag, one initiator, ids %v: %s", ids, r.Verdict)
		}
	}
}

// A mutant that forwards smaller ids too (drops the comparison) lets a
// non-maximum id come back to its owner: it becomes leader (leader-is-max,
// the shortest failure) and later so does the maximum (at-most-one-leader).
func TestMutantWithoutTheComparisonIsCaught(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{1, 3, 2}}
	sys, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	net, _ := uniring.NewNet(p)
	recv := sys.Rules[1].Do
	sys.Rules[1].Do = func(s *uniring.State, i, k int) bool {
		if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID < p.IDs[i] {
			net.Receive(s, i, k)
			return net.Send(s, i, m)
		}
		return recv(s, i, k)
	}
	// With partial-order reduction the same violations are found, by real
	// runs that need not be the shortest.
	for _, reduce := range []bool{false, true} {
		r := spectest.Run(t, sys, checker.Options{Reduce: reduce, Safety: true})
		if r.Verdict != checker.Fail || r.Reduced != reduce || (!reduce && r.Failure().Name != "leader-is-max") {
			t.Fatalf("mutant (reduce %v): verdict %s, first failure %+v", reduce, r.Verdict, r.Failure())
		}
		for _, p := range r.Props {
			if (p.Name == "at-most-one-leader" || p.Name == "leader-is-max") && (p.Verdict != checker.Fail || p.Trace == nil) {
				t.Fatalf("mutant (reduce %v): %s %s, want fail with a trace", reduce, p.Name, p.Verdict)
			}
		}
	}
}

// Reduction keeps every verdict with far fewer states on the descending
// arrangement (the counts: testdata/counts.tsv), and the footprints tell the truth (por.CheckFootprints).
func TestReductionAndFootprints(t *testing.T) {
	for _, n := range []int{6, 8} {
		sys, _ := New(model.Params{N: n, IDs: ring.DescendingIDs(n)})
		full := spectest.Run(t, sys, checker.Options{Safety: true})
		red := spectest.Run(t, sys, checker.Options{Reduce: true, Safety: true})
		if full.Verdict != checker.Pass || red.Verdict != checker.Pass || red.States >= full.States || red.Terminal != full.Terminal {
			t.Errorf("n=%d: full %s %d states %d terminal, reduced %s %d states %d terminal; want pass, fewer states reduced, the same terminal states",
				n, full.Verdict, full.States, full.Terminal, red.Verdict, red.States, red.Terminal)
		}
	}
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}},
		{N: 4, IDs: []int{3, 1, 4, 2}, Chan: model.Bag, Initiators: []int{1}},
		{N: 4, IDs: []int{2, 4, 1, 3}, Cap: 1, Claims: true},
	} {
		sys, _ := New(p)
		if err := por.CheckFootprints(context.Background(), sys); err != nil {
			t.Errorf("%s: %v", p.String(), err)
		}
	}
}

// Each processor's id travels at most n hops, so at most n(n+1)/2 ⟨elect⟩
// messages in all; the descending arrangement reaches it. Ghosts erase to
// the plain graph. Reference: 004 (each processor induces at most n messages).
func TestClaimsAndGhostErasure(t *testing.T) {
	for _, ids := range ring.Arrangements(5) {
		if r := spectest.Check(t, New, model.Params{N: 5, IDs: ids, Claims: true}); r.Verdict != checker.Pass {
			t.Fatalf("ids %v with claims: %s", ids, r.Verdict)
		}
	}
	p := model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Chan: model.Bag}
	plain, _ := New(p)
	p.Claims = true
	ghosted, _ := New(p)
	if err := checker.CheckErasure(context.Background(), ghosted, plain); err != nil {
		t.Fatal(err)
	}
}

// Every run ends (the graph has no cycle) and elects a leader, whatever the
// fairness. Reference: 004 (simpler version).
func TestEventuallyALeaderUnderEveryFairness(t *testing.T) {
	sys, _ := New(model.Params{N: 5, IDs: []int{3, 1, 5, 2, 4}, Chan: model.Bag})
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		r := spectest.Run(t, sys, checker.Options{Fair: f})
		if r.Verdict != checker.Pass || r.Liveness.Cycles != 0 {
			t.Fatalf("fairness %s: %s, %d cycles", f, r.Verdict, r.Liveness.Cycles)
		}
	}
}
