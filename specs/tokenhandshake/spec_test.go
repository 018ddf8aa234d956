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
func TestStateCounts(t *testing.T) {
	for n, pow := 2, 3; n <= 5; n, pow = n+1, pow*3 {
		r := spectest.Run(t, spectest.Build(t, New, params(n)), checker.Options{Fair: model.FairNone})
		if want := int64(n * 5 * pow); r.Verdict != checker.Pass || r.States != want || r.Terminal != 0 {
			t.Errorf("n=%d: %s, %d states, %d terminal; want pass, %d, 0", n, r.Verdict, r.States, r.Terminal, want)
		}
	}
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
