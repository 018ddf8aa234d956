package tokenhandshake

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func params(n int) model.Params { return model.Params{N: n, IDs: ring.DescendingIDs(n)} }

// The token's holder is in any of the five local states, every other
// process idle, asked or ready (it reaches in-cs only with the token, and
// leaves done only by sending it): n·5·3^(n-1) states, all reachable.
func TestCountsFollowTheFormula(t *testing.T) {
	for _, row := range spectest.CountRows(t) {
		n := row.Params.N
		states := int64(n * 5)
		for range n - 1 {
			states *= 3
		}
		if row.Params.Variant != "" || row.States != states || row.Terminal != 0 {
			t.Errorf("%s: pins %d states %d terminal; the formula gives %d, 0", row, row.States, row.Terminal, states)
		}
	}
}

// The rows of testdata/counts.tsv.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// A request acknowledged is granted under every fairness, none included
// (the package doc: no process acts for ever without sending the token).
func TestAnAcknowledgedRequestIsGrantedUnderEveryFairness(t *testing.T) {
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		if r := spectest.Run(t, spectest.Build(t, New, params(3)), checker.Options{Fair: f}); r.Verdict != checker.Pass {
			t.Errorf("fairness %s: %s, failure %+v", f, r.Verdict, r.Failure())
		}
	}
}

// The footprints tell the truth, and reduction keeps every safety verdict.
func TestReduction(t *testing.T) {
	for n := 2; n <= 4; n++ {
		spectest.Footprints(t, New, params(n))
		spectest.SameVerdicts(t, checker.Of(spectest.Build(t, New, params(n))), "tokenhandshake")
	}
}

func TestParametersItDoesNotHaveAreRefused(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{3, 2, 1}, Initiators: []int{0}},
		{N: 3, IDs: []int{3, 2, 1}, Bound: 2},
		{N: 3, IDs: []int{3, 2, 1}, Variant: "nope"},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}
