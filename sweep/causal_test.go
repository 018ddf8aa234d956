package sweep

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// allRunsCausal is the largest CausalDepth of any complete run from the
// initial states of st, enumerating the runs one by one (small systems
// only).
func allRunsCausal(t *testing.T, st checker.Stepper) int {
	t.Helper()
	best := 0
	var walk func(init int, s checker.State, path []checker.Step)
	walk = func(init int, s checker.State, path []checker.Step) {
		moves, err := st.Moves(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) == 0 {
			d, err := CausalDepth(st, &checker.Trace{Init: init, Steps: path})
			if err != nil {
				t.Fatal(err)
			}
			best = max(best, d)
			return
		}
		for _, m := range moves {
			walk(init, m.To, append(path[:len(path):len(path)], checker.Step{Action: m.Action}))
		}
	}
	for i, s := range st.Initial() {
		walk(i, s, nil)
	}
	return best
}

// The longest causal chain over all runs, from the stamped-state
// exploration, equals the most CausalDepth of any complete run, found by
// enumerating every run, for every arrangement of small rings.
func TestCausalOverAllRuns(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
	}{{"changroberts", 3}, {"changroberts-all-initiate", 4}, {"dkr", 3}, {"hp", 3}} {
		cfg := config(t, c.name)
		for _, ids := range ring.Arrangements(c.n) {
			tg, err := cfg.Spec.Build(model.Params{N: c.n, IDs: ids, Variant: cfg.Variant})
			if err != nil {
				t.Fatal(err)
			}
			cost, err := CostOf(context.Background(), tg, CostOptions{CausalLimit: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if want := allRunsCausal(t, tg); cost.Causal != want || cost.Causal < cost.MaxCausal {
				t.Fatalf("%s ids %v: longest causal chain %d (%d stamped states), enumerating runs %d, worst run's %d",
					c.name, ids, cost.Causal, cost.CausalStates, want, cost.MaxCausal)
			}
		}
	}
}
