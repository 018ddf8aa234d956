package simulate_test

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/dkr"
	"github.com/ringcheck/mc/specs/franklin"
	"github.com/ringcheck/mc/specs/hp"
	"github.com/ringcheck/mc/specs/misra"
	"github.com/ringcheck/mc/specs/suzukikasami"
	"github.com/ringcheck/mc/specs/tokenring"
	"github.com/ringcheck/mc/specs/vitanyi"
	"github.com/ringcheck/mc/specs/vlt"
)

func agree[S any](t *testing.T, name string, sys *model.System[S], err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for seed := range uint64(5) {
		if _, err := simulate.SchedulerAgrees(sys, seed, 3000); err != nil {
			t.Fatalf("%s, seed %d: %v", name, seed, err)
		}
	}
}

// The scheduler re-evaluates after a step only the guards its footprint
// names; every spec's runs must keep every guard's weight as a fresh
// evaluation finds it.
func TestIncrementalSchedulerMatchesEveryGuard(t *testing.T) {
	ids := func(n int) []int { return []int{3, 7, 1, 6, 2, 8, 5, 4}[:n] }
	p := func(n int) model.Params { return model.Params{N: n, IDs: ids(n), Claims: true} }
	{
		q := p(8)
		sys, err := changroberts.New(q)
		agree(t, "changroberts", sys, err)
		q.Chan, q.Cap = model.Bag, 1
		sys, err = changroberts.New(q)
		agree(t, "changroberts bag cap 1", sys, err)
	}
	{
		sys, err := dkr.New(p(8))
		agree(t, "dkr", sys, err)
	}
	{
		sys, err := hp.New(p(8))
		agree(t, "hp", sys, err)
	}
	{
		sys, err := franklin.New(p(8))
		agree(t, "franklin", sys, err)
	}
	{
		q := p(6)
		q.Orientation = []bool{false, true, true, false, true, false}
		sys, err := vlt.New(q)
		agree(t, "vlt", sys, err)
	}
	{
		q := p(4)
		q.IDs = []int{2, 4, 1, 3}
		q.Drift = 2
		sys, err := vitanyi.New(q)
		agree(t, "vitanyi", sys, err)
	}
	anon := model.Params{N: 3, IDs: ring.DescendingIDs(3), Claims: true}
	{
		sys, err := tokenring.New(anon)
		agree(t, "tokenring", sys, err)
	}
	{
		q := anon
		q.Chan = model.Bag
		sys, err := suzukikasami.New(q)
		agree(t, "suzukikasami", sys, err)
	}
	{
		sys, err := misra.New(anon)
		agree(t, "misra", sys, err)
	}
}
