package sweep

import (
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// RunCost is what one complete run of t, the system of a class of ring
// size n, costs as c counts its classes' runs: from initial state init
// (an index of the system's initial states) along actions, the counted
// messages (or the measure's increase) of each step, and those already in
// transit at the start. A witness run read back from its file is so
// weighed as the sweep weighed it when it found the run, on the same
// observations of the same states (checker.Target.ObservePath).
func (c Config) RunCost(t checker.Target, n, init int, actions []model.Action) (Messages, error) {
	opt := c.costOptions(n)
	opt.Bits, opt.Phases, opt.CausalLimit = "", "", 0 // the first weight only
	w, err := newWeights(t, opt)
	if err != nil {
		return 0, err
	}
	err = t.ObservePath(init, actions, checker.GraphOptions{Measures: w.measures, InTransit: w.inTransit, Visit: w.visit})
	if err != nil {
		return 0, err
	}
	if w.err != nil {
		return 0, w.err
	}
	sums, cost := w.sums[0], 0
	for i := range sums {
		var before []int32
		if i > 0 {
			before = sums[i-1]
		}
		cost += w.list[0].diff(before, sums[i])
	}
	if len(sums) != len(actions)+1 {
		return 0, fmt.Errorf("internal error: %d states observed along a run of %d steps", len(sums), len(actions))
	}
	return Messages(cost), nil
}
