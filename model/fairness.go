package model

import "fmt"

// Fairness selects which infinite runs a liveness property is checked on.
// Every kind is weak fairness ("justice") over a partition of the actions
// into classes: a run is fair when no class stays enabled from some point on
// without ever being taken again. Environment actions (model.Rule.Env) belong
// to no class: fairness never forces them, and taking one does not count as
// a step of any class.
//
// The zero value is FairProcess, mc's default. It lives in model, not in
// the liveness checker, because a spec names the fairness its liveness
// claims hold under (specdef.Defaults.Fair) without importing the checker.
type Fairness int

const (
	// FairProcess is weak fairness per process: if some (non-environment)
	// action of process p stays enabled continuously, p eventually takes a
	// (non-environment) step. The class of an action is its process.
	FairProcess Fairness = iota
	// FairAction is weak fairness per action class: if some action of a rule
	// (by name, at any process and with any choice) stays enabled
	// continuously, an action of that rule is eventually taken.
	FairAction
	// FairNone assumes nothing: every infinite run counts, and so does every
	// run that stops in a terminal state.
	FairNone
)

func (f Fairness) String() string {
	switch f {
	case FairProcess:
		return "process"
	case FairAction:
		return "action"
	case FairNone:
		return "none"
	}
	return fmt.Sprintf("Fairness(%d)", int(f))
}

// ParseFairness reads "none", "process" or "action".
func ParseFairness(s string) (Fairness, error) {
	for _, f := range []Fairness{FairNone, FairProcess, FairAction} {
		if s == f.String() {
			return f, nil
		}
	}
	return FairProcess, fmt.Errorf("unknown fairness %q (want none, process or action)", s)
}
