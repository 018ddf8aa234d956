package checker

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Trace is a run a person reads: the initial state in full, then one step per
// action with only the variables it changed (TLA+ style).
type Trace struct {
	Property string `json:"property"`
	Kind     string `json:"kind"`
	// Deadlock marks a trace that ends in a terminal state (no action
	// enabled): one that fails an end property, or a finite maximal run that
	// never reaches a liveness property's goal.
	Deadlock bool `json:"deadlock,omitempty"`
	// From, set for a counterexample to "P leads to Q", is the index of a
	// state where P holds and after which Q never holds.
	From *int `json:"from,omitempty"`
	// Init is the index of the initial state the run starts from.
	Init  int         `json:"init"`
	Start []model.Var `json:"start"`
	Steps []Step      `json:"steps"`
	// LoopStart is set only for a lasso, a liveness counterexample: the
	// state after the last step is the state after step *LoopStart (0: the
	// initial state), and the steps from there on repeat forever.
	LoopStart *int `json:"loop_start,omitempty"`
}

// Step is one action of a trace.
type Step struct {
	Action model.Action `json:"-"`
	Rule   string       `json:"rule"`
	Proc   int          `json:"process"`
	// Label is the action as the paper would say it: "recv p2 ⟨elect 5⟩".
	Label   string      `json:"action"`
	Changes []model.Var `json:"changes"`
}

// Replay runs actions from initial state init and returns the final state.
// It fails if an action is not enabled where the trace takes it.
func Replay[S any](sys *model.System[S], init int, actions []model.Action) (S, error) {
	var s, t S
	if init < 0 || init >= len(sys.Init) {
		return s, fmt.Errorf("trace starts from initial state %d, but the spec has %d", init, len(sys.Init))
	}
	sys.Copy(&s, &sys.Init[init])
	for i, a := range actions {
		if !sys.Apply(&s, a, &t) {
			return s, fmt.Errorf("step %d: action %v is not enabled", i+1, a)
		}
		s, t = t, s
	}
	return s, nil
}

// render replays actions from init and describes each step. wantFP is the
// fingerprint of the state the run must end in; a mismatch means mc's own
// bookkeeping is wrong and is returned as an error, never printed as a trace.
func render[S any](sys *model.System[S], init int, actions []model.Action, wantFP uint64) (*Trace, error) {
	tr := &Trace{Init: init, Steps: make([]Step, 0, len(actions))}
	var s, t S
	sys.Copy(&s, &sys.Init[init])
	before := sys.Vars(&s)
	tr.Start = before
	for i, a := range actions {
		label := sys.Label(&s, a)
		if !sys.Apply(&s, a, &t) {
			return nil, fmt.Errorf("internal error: trace step %d (%s) is not enabled on replay", i+1, label)
		}
		after := sys.Vars(&t)
		tr.Steps = append(tr.Steps, Step{Action: a, Rule: sys.Rules[a.Rule].Name, Proc: a.Proc, Label: label, Changes: diff(before, after)})
		s, t, before = t, s, after
	}
	if fp := model.Fingerprint(sys.Encode(nil, &s)); fp != wantFP {
		return nil, fmt.Errorf("internal error: trace replay ends in state %016x, not the recorded %016x", fp, wantFP)
	}
	return tr, nil
}

// diff lists the variables of after whose value differs from before.
func diff(before, after []model.Var) []model.Var {
	old := make(map[string]string, len(before))
	for _, v := range before {
		old[v.Name] = v.Value
	}
	var out []model.Var
	for _, v := range after {
		if o, ok := old[v.Name]; !ok || o != v.Value {
			out = append(out, v)
		}
	}
	return out
}
