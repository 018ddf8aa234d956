package sweep

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// A class's worst and best runs, weighed again one by one, cost what the
// class's graph said they cost, counted messages and a measure alike
// (Chang–Roberts' all-initiate counts the messages in transit at the
// start; Vitányi's counts a ghost counter); a run with a step that is not
// enabled, one past a terminal state, is refused.
func TestRunCostIsTheCostOfTheGraphsRun(t *testing.T) {
	for _, c := range []struct {
		sweep string
		n     int
		ids   []int
	}{{"changroberts", 5, []int{1, 5, 4, 3, 2}}, {"changroberts-all-initiate", 4, []int{1, 4, 3, 2}}, {"vitanyi", 3, []int{1, 2, 3}}} {
		cfg := config(t, c.sweep)
		tgt, err := cfg.target(c.n, c.ids)
		if err != nil {
			t.Fatal(err)
		}
		cost, err := CostOf(context.Background(), tgt, cfg.costOptions(c.n))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			run  *checker.Trace
			want int
		}{{cost.MaxRun, cost.Max}, {cost.MinRun, cost.Min}} {
			actions := make([]model.Action, len(r.run.Steps))
			for i, s := range r.run.Steps {
				actions[i] = s.Action
			}
			got, err := cfg.RunCost(tgt, c.n, r.run.Init, actions)
			if err != nil || int(got) != r.want {
				t.Errorf("%s n=%d: a run the graph says costs %d weighs %d (%v)", c.sweep, c.n, r.want, got, err)
			}
			bad := append(append([]model.Action(nil), actions...), actions[0])
			if _, err := cfg.RunCost(tgt, c.n, r.run.Init, bad); err == nil || !strings.Contains(err.Error(), "is not enabled") {
				t.Errorf("%s n=%d: a step past the run's end gave %v", c.sweep, c.n, err)
			}
		}
	}
}
