package vlt_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/specs/vlt"
	"github.com/ringcheck/mc/sweep"
)

// The ghost count election-messages weighs every run exactly as the
// exhaustive sweep's count off the View does (phase messages, the
// announcement apart): the fewest and most over every run of n = 4, every
// orientation assignment, are the same by either count, for both variants.
func TestElectionMessagesCountWhatTheSweepCounts(t *testing.T) {
	for _, variant := range []string{"e", "modified"} {
		sys, err := vlt.New(model.Params{N: 4, IDs: vlt.DefaultIDs(4), Variant: variant, Claims: true})
		if err != nil {
			t.Fatal(err)
		}
		byView, err := sweep.CostOf(context.Background(), checker.Of(sys), sweep.CostOptions{Uncounted: specdef.Announcement})
		if err != nil {
			t.Fatal(err)
		}
		byGhost, err := sweep.CostOf(context.Background(), checker.Of(sys), sweep.CostOptions{Measure: "election-messages"})
		if err != nil {
			t.Fatal(err)
		}
		if byView.Min != byGhost.Min || byView.Max != byGhost.Max || byView.Max > vlt.MessageBound(4) {
			t.Errorf("%s: off the View %d..%d, by the ghost %d..%d (bound %d)", variant, byView.Min, byView.Max, byGhost.Min, byGhost.Max, vlt.MessageBound(4))
		}
	}
}

// Beyond n = 64, --claims checks the claims that are not pairwise, and a
// simulated run counts its messages: three runs of n = 65 break nothing and
// send between the 2n of phase 0 and Prop. 3.9's bound.
func TestClaimsBeyond64LeaveOutThePairwiseOnes(t *testing.T) {
	n := 65
	p := model.Params{N: n, IDs: ring.DescendingIDs(n), Claims: true, Orientation: make([]bool, n)}
	sys, err := vlt.New(p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, pr := range sys.Props {
		names = append(names, pr.Name)
	}
	for _, name := range []string{"lemma-3-2-colours-shrink", "lemma-3-5-i-shared-colour", "lemma-3-7-colour-count"} {
		if slices.Contains(names, name) {
			t.Errorf("n=%d: %s is checked", n, name)
		}
	}
	for _, name := range []string{"lemma-3-1-arrival-side", "prop-3-9-messages-per-phase", "prop-3-9-one-per-link", "prop-3-6-i-one-inauguration"} {
		if !slices.Contains(names, name) {
			t.Errorf("n=%d: %s is not checked", n, name)
		}
	}
	build := func(p model.Params) (simulate.System, error) {
		sys, err := vlt.New(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}
	rep, err := simulate.Simulate(context.Background(), build, p,
		simulate.Options{Seed: 1, Runs: 3, MaxSteps: simulate.DefaultMaxSteps(n), RandomIDs: true, Workers: 1, Messages: "election-messages"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failure != nil || rep.Messages.Min < 2*n || rep.Messages.Max > vlt.MessageBound(n) {
		t.Fatalf("n=%d: failure %v, messages %d..%d, want within %d..%d", n, rep.Failure, rep.Messages.Min, rep.Messages.Max, 2*n, vlt.MessageBound(n))
	}
}
