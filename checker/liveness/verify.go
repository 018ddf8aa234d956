package liveness

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Verify replays actions from initial state init and checks, independently
// of any graph, that they form a counterexample to p under the fairness cls
// stands for: every step is enabled; either the state after loopStart steps
// equals the last one and the steps from loopStart on form a fair loop, or
// (terminating) the run ends in a terminal state; and from some state on —
// where P holds, for leads-to; the initial state, for eventually — Q holds
// in no state. It returns that state's index (0 is the initial state).
func Verify[S any](sys *model.System[S], cls *Classes, p *model.Property[S], init int, actions []model.Action, loopStart int, terminating bool) (int, error) {
	states := make([]S, len(actions)+1)
	sys.Copy(&states[0], &sys.Init[init])
	for i, a := range actions {
		if !sys.Apply(&states[i], a, &states[i+1]) {
			return 0, fmt.Errorf("step %d is not enabled", i+1)
		}
	}
	last := len(actions)
	fp := func(i int) uint64 { return model.Fingerprint(sys.Encode(nil, &states[i])) }
	goal := func(i int) bool {
		if p.Terminal {
			return len(enabledActions(sys, &states[i])) == 0
		}
		return p.State(&states[i])
	}
	if terminating {
		if len(enabledActions(sys, &states[last])) != 0 {
			return 0, fmt.Errorf("the run stops in a state where an action is enabled")
		}
	} else if loopStart >= last || fp(loopStart) != fp(last) {
		return 0, fmt.Errorf("the loop from state %d does not close", loopStart)
	}
	// The goal must fail from some state on, through the whole loop, and
	// that stretch must start in the initial state (eventually) or contain
	// a state where P holds (leads-to).
	stretch := last + 1
	for stretch > 0 && !goal(stretch-1) {
		stretch--
	}
	from := stretch
	for p.Kind == model.LeadsTo && from <= last && !p.From(&states[from]) {
		from++
	}
	switch {
	case from > last || (!terminating && stretch > loopStart):
		return 0, fmt.Errorf("the goal holds again after the last state where it was awaited")
	case p.Kind == model.Eventually && from != 0:
		return 0, fmt.Errorf("the goal holds in state %d", from-1)
	}
	if terminating {
		return from, nil
	}
	// Fairness: every class is disabled in some loop state or taken by
	// some loop step.
	ok := make([]uint64, cls.words)
	enabled := make([]uint64, cls.words)
	for i := loopStart; i < last; i++ {
		clear(enabled)
		for _, a := range enabledActions(sys, &states[i]) {
			set(enabled, cls.of(a))
		}
		for w := range ok {
			ok[w] |= ^enabled[w]
		}
		set(ok, cls.of(actions[i]))
	}
	for k := 0; k < cls.count; k++ {
		if !has(ok, k) {
			return 0, fmt.Errorf("the loop is unfair to %s: enabled in every loop state, never taken", cls.names[k])
		}
	}
	return from, nil
}

// enabledActions lists the actions enabled in s, from the rules alone.
func enabledActions[S any](sys *model.System[S], s *S) []model.Action {
	var out []model.Action
	var t S
	for a := range sys.Steps(s, &t) {
		out = append(out, a)
	}
	return out
}
