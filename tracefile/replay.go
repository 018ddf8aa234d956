package tracefile

import (
	"fmt"

	"mc/checker"
	"mc/model"
	"mc/specs"
)

// Target rebuilds the system a trace was recorded from, through the specs
// registry, from the recorded spec, variant and parameters.
func Target(f *File) (checker.Target, error) {
	entry, err := specs.Lookup(f.Spec)
	if err != nil {
		return nil, err
	}
	p, err := f.Params.Model(f.Variant)
	if err != nil {
		return nil, err
	}
	return entry.Build(p)
}

// Outcome is what replaying a trace against the current spec found.
type Outcome struct {
	// Reached holds when every step is enabled where the trace takes it,
	// every state is the recorded one, and the run still shows what it
	// recorded about its property (a failure, a witness, a closed loop).
	Reached bool
	// Step is the step at which the replay diverged (0: the initial state),
	// or len(Steps) when only the verdict at the end differs.
	Step int
	// Why says in one line what was found.
	Why string
}

// Replay re-executes f's steps against t, action by action (a rule by its
// name, a process, a choice), comparing every state with the recorded one.
func Replay(f *File, t checker.Stepper) Outcome {
	info := t.Info()
	init := t.Initial()
	if f.Init < 0 || f.Init >= len(init) {
		return Outcome{Why: fmt.Sprintf("the trace starts from initial state %d, but the spec has %d", f.Init, len(init))}
	}
	cur := init[f.Init]
	if why := sameState(t, cur, &f.States[0]); why != "" {
		return Outcome{Why: "initial state: " + why}
	}
	keys := []uint64{cur.Key()}
	var last checker.Move
	for i, s := range f.Steps {
		rule := info.RuleIndex(s.Rule)
		if rule < 0 {
			return Outcome{Step: i + 1, Why: fmt.Sprintf("step %d (%s): the spec has no rule %q", i+1, s.Action, s.Rule)}
		}
		m, err := t.Step(cur, model.Action{Rule: rule, Proc: s.Process, Choice: s.Choice})
		if err != nil {
			return Outcome{Step: i + 1, Why: fmt.Sprintf("step %d (%s): %v", i+1, s.Action, err)}
		}
		if why := sameState(t, m.To, &f.States[i+1]); why != "" {
			return Outcome{Step: i + 1, Why: fmt.Sprintf("step %d (%s): %s", i+1, s.Action, why)}
		}
		cur, last = m.To, m
		keys = append(keys, cur.Key())
	}
	end := len(f.Steps)
	if f.LoopStart != nil {
		if keys[end] != keys[*f.LoopStart] {
			return Outcome{Step: end, Why: fmt.Sprintf("the last state is not the state after step %d, where the loop starts", *f.LoopStart)}
		}
		return Outcome{Reached: true, Step: end, Why: fmt.Sprintf("the run replays and closes its loop at step %d", *f.LoopStart)}
	}
	return verdictAtEnd(f, t, info, cur, last)
}

// verdictAtEnd checks that the property still fails (or, for a witness's
// run, still holds) where the replayed run ends.
func verdictAtEnd(f *File, t checker.Stepper, info checker.Info, end checker.State, last checker.Move) Outcome {
	at := len(f.Steps)
	name, kind := f.Property.Name, f.Property.Kind
	if kind == CostRun {
		snap, err := t.Inspect(end)
		switch {
		case err != nil:
			return Outcome{Step: at, Why: err.Error()}
		case !snap.Terminal:
			return Outcome{Step: at, Why: "the run replays, but its last state is no longer terminal: an action is enabled there"}
		}
		return Outcome{Reached: true, Step: at, Why: "the run replays to a terminal state (a complete run of mc sweep; its cost is what mc sweep reports)"}
	}
	found := false
	for _, p := range info.Props {
		found = found || p.Name == name
	}
	if !found {
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but the spec no longer has property %s", name)}
	}
	if kind == model.Step.String() {
		for _, b := range last.Broken {
			if b == name {
				return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and its last step still violates %s", name)}
			}
		}
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but its last step no longer violates %s", name)}
	}
	snap, err := t.Inspect(end)
	if err != nil {
		return Outcome{Step: at, Why: err.Error()}
	}
	var st checker.PropStatus
	for _, p := range snap.Props {
		if p.Name == name {
			st = p
		}
	}
	switch {
	case kind == model.Witness.String() && st.Holds:
		return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and still reaches a state where witness %s holds", name)}
	case kind == model.Witness.String():
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but witness %s no longer holds where it ends", name)}
	case kind == model.End.String() && !snap.Terminal:
		return Outcome{Step: at, Why: "the run replays, but its last state is no longer terminal: an action is enabled there"}
	case (kind == model.End.String() || kind == model.Invariant.String()) && st.Evaluated && !st.Holds:
		what := "still violates " + kind + " " + name
		if kind == model.End.String() {
			what = "still ends in a deadlock: the terminal state violates " + name
		}
		return Outcome{Reached: true, Step: at, Why: "the run replays and " + what}
	case kind == model.End.String() || kind == model.Invariant.String():
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but %s %s now holds in its last state", kind, name)}
	}
	return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but mc cannot check a %s property at its end without a loop", kind)}
}

// sameState compares a replayed state with a recorded one, variable by
// variable, and says how they differ ("" when they do not).
func sameState(t checker.Stepper, s checker.State, want *State) string {
	snap, err := t.Inspect(s)
	if err != nil {
		return err.Error()
	}
	recorded := make(map[string]string, len(want.Vars))
	for _, v := range want.Vars {
		recorded[v.Name] = v.Value
	}
	for _, v := range snap.Vars {
		old, ok := recorded[v.Name]
		if !ok {
			return fmt.Sprintf("the spec has a variable %s that the trace does not record", v.Name)
		}
		if old != v.Value {
			return fmt.Sprintf("%s = %s on replay, %s in the trace", v.Name, v.Value, old)
		}
		delete(recorded, v.Name)
	}
	for _, v := range want.Vars {
		if _, left := recorded[v.Name]; left {
			return fmt.Sprintf("the trace records a variable %s that the spec no longer has", v.Name)
		}
	}
	return ""
}
