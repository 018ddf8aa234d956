package tracefile

import (
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// runClaims checks that t is the system of the recorded run (the spec,
// variant and every parameter), and that the recorded fairness is one mc
// knows.
func (f *File) runClaims(info checker.Info) string {
	if d := systemDifferences(f.Run, info); len(d) > 0 {
		return d[0].Phrase("the trace's run", "the system replayed")
	}
	if _, err := model.ParseFairness(f.Run.Fair); err != nil {
		return fmt.Sprintf("the trace's run has %v", err)
	}
	return ""
}

// propertyClaims finds the recorded property among the spec's and checks
// what the file says of it: its kind, reference and description, and a
// verdict that a run can show (a witness's run passes; a run about any
// other property is a counterexample). A cost run (mc sweep) is about no
// property of the spec: it has none to check, and the result is nil.
func (f *File) propertyClaims(info checker.Info) (*checker.PropInfo, string) {
	claim := f.Property
	if claim.Kind == CostRun {
		return nil, ""
	}
	var p *checker.PropInfo
	for i := range info.Props {
		if info.Props[i].Name == claim.Name {
			p = &info.Props[i]
		}
	}
	want := string(checker.Fail)
	if p != nil && p.Kind == model.Witness {
		want = string(checker.Pass)
	}
	switch {
	case p == nil:
		return nil, fmt.Sprintf("the spec has no property %s", claim.Name)
	case p.Kind.String() != claim.Kind:
		return nil, fmt.Sprintf("the trace says %s is a %s property; the spec's %s is a %s property", claim.Name, claim.Kind, p.Name, p.Kind)
	case p.Ref != claim.Ref:
		return nil, fmt.Sprintf("the trace cites %q for %s; the spec cites %q", claim.Ref, claim.Name, p.Ref)
	case p.Doc != claim.Doc:
		return nil, fmt.Sprintf("the trace describes %s as %q; the spec as %q", claim.Name, claim.Doc, p.Doc)
	case claim.Verdict != want:
		return nil, fmt.Sprintf("the trace claims verdict %q for %s property %s; a run can show only %q", claim.Verdict, p.Kind, p.Name, want)
	case p.Kind.Liveness() && f.Run.Safety:
		return nil, fmt.Sprintf("the trace's run checks safety only (--safety), which leaves %s property %s unchecked", p.Kind, p.Name)
	case p.Name == model.Deadlock && f.Run.NoDeadlock:
		return nil, fmt.Sprintf("the trace's run has --no-deadlock, which leaves property %s unchecked", p.Name)
	}
	return p, ""
}

// verdictAtEnd checks what the replayed run shows about its property where
// it ends: for a cost run, a terminal state; for a liveness property, a
// fair loop or a deadlock on which its goal never holds; for the others, a
// failure, or for a witness the state it looks for.
func (f *File) verdictAtEnd(t checker.Stepper, prop *checker.PropInfo, end checker.State, last checker.Move, actions []model.Action) Outcome {
	at := len(f.Steps)
	snap, err := t.Inspect(end)
	switch {
	case err != nil:
		return Outcome{Step: at, Why: err.Error()}
	case f.Deadlock && !snap.Terminal:
		return Outcome{Step: at, Why: "the trace claims a deadlock, but an action is enabled in its last state"}
	case prop == nil && !snap.Terminal:
		return Outcome{Step: at, Why: "the run replays, but its last state is no longer terminal: an action is enabled there"}
	case prop == nil:
		return Outcome{Reached: true, Step: at, Why: "the run replays to a terminal state (a complete run of mc sweep; its cost is what mc sweep reports)"}
	case prop.Kind.Liveness():
		return f.livenessAtEnd(t, prop, actions)
	case f.LoopStart != nil:
		return Outcome{Step: at, Why: fmt.Sprintf("the trace ends in a loop, which shows nothing about %s property %s", prop.Kind, prop.Name)}
	}
	name, kind := prop.Name, prop.Kind
	if kind == model.Step {
		for _, b := range last.Broken {
			if b == name {
				return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and its last step still violates %s", name)}
			}
		}
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but its last step no longer violates %s", name)}
	}
	var st checker.PropStatus
	for _, p := range snap.Props {
		if p.Name == name {
			st = p
		}
	}
	switch {
	case kind == model.Witness && st.Holds:
		return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and still reaches a state where witness %s holds", name)}
	case kind == model.Witness:
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but witness %s no longer holds where it ends", name)}
	case kind == model.End && !snap.Terminal:
		return Outcome{Step: at, Why: "the run replays, but its last state is no longer terminal: an action is enabled there"}
	case st.Evaluated && !st.Holds && name == model.Deadlock:
		return Outcome{Reached: true, Step: at, Why: "the run replays and still ends in a deadlock: a terminal state the spec does not declare a proper end"}
	case st.Evaluated && !st.Holds && kind == model.End:
		return Outcome{Reached: true, Step: at, Why: "the run replays and still ends in a deadlock: the terminal state violates " + name}
	case st.Evaluated && !st.Holds:
		return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and still violates %s %s", kind, name)}
	}
	return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but %s %s now holds in its last state", kind, name)}
}

// livenessAtEnd checks that the replayed run is a counterexample to the
// liveness property prop under the recorded fairness, as the checker
// checks its own (checker.Stepper.VerifyLasso).
func (f *File) livenessAtEnd(t checker.Stepper, prop *checker.PropInfo, actions []model.Action) Outcome {
	at := len(f.Steps)
	fair, _ := model.ParseFairness(f.Run.Fair) // checked by runClaims
	loop := -1
	switch {
	case f.LoopStart != nil:
		loop = *f.LoopStart
	case !f.Deadlock:
		return Outcome{Step: at, Why: fmt.Sprintf("a counterexample to %s property %s ends in a loop or a deadlock; the trace claims neither", prop.Kind, prop.Name)}
	}
	if err := t.VerifyLasso(prop.Name, fair, f.Init, actions, loop); err != nil {
		return Outcome{Step: at, Why: fmt.Sprintf("the run replays, but it is no counterexample to %s under fairness %s: %v", prop.Name, fair, err)}
	}
	if loop < 0 {
		return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and still stops in a deadlock without ever satisfying %s", prop.Name)}
	}
	return Outcome{Reached: true, Step: at, Why: fmt.Sprintf("the run replays and closes its loop at step %d: a loop, fair under fairness %s, on which %s is never satisfied", loop, fair, prop.Name)}
}
