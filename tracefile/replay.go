package tracefile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
)

// Target rebuilds the system a trace was recorded from, through the specs
// registry, from the recorded run: the spec, its variant and every
// parameter.
func Target(f *File) (checker.Target, error) {
	entry, err := specs.Lookup(f.Run.Spec)
	if err != nil {
		return nil, err
	}
	p, err := f.Run.Params.Model(f.Run.Variant)
	if err != nil {
		return nil, fmt.Errorf("the recorded parameters: %v", err)
	}
	return entry.Build(p)
}

// Outcome is what replaying a trace against the current spec found.
type Outcome struct {
	// Reached holds when the run shows everything the file claims (Replay).
	Reached bool
	// Step is the step at which the replay diverged (0: the initial state,
	// or a claim about the run or its property), or len(Steps) when only
	// the verdict at the end differs.
	Step int
	// Why says in one line what was found: the first claim the run does
	// not show, or what it still shows.
	Why string
}

// Replay re-executes f's steps against t, action by action (a rule by its
// name, a process, a choice), and re-checks everything the file claims, in
// the file's order: that t is the system of the recorded run; the property
// by name, kind, reference and description, and that a run can show the
// recorded verdict about it; the initial state; per step, the action's
// text, the messages received and sent, and the state after it (variables
// and picture); and at the end what the run shows about its property (a
// failure, a witness, a deadlock, or, for a liveness property, a loop or
// deadlock on which its goal never holds, fair under the recorded
// fairness). Why names the first claim the run does not show.
func Replay(f *File, t checker.Stepper) Outcome {
	info := t.Info()
	if why := f.runClaims(info); why != "" {
		return Outcome{Why: why}
	}
	prop, why := f.propertyClaims(info)
	if why != "" {
		return Outcome{Why: why}
	}
	init := t.Initial()
	if f.Init < 0 || f.Init >= len(init) {
		return Outcome{Why: fmt.Sprintf("the trace starts from initial state %d, but the spec has %d", f.Init, len(init))}
	}
	cur := init[f.Init]
	if why := sameState(t, cur, &f.States[0]); why != "" {
		return Outcome{Why: "initial state: " + why}
	}
	actions := make([]model.Action, 0, len(f.Steps))
	var last checker.Move
	for i := range f.Steps {
		s := &f.Steps[i]
		m, why := replayStep(t, info, cur, s)
		if why == "" {
			why = sameState(t, m.To, &f.States[i+1])
		}
		if why != "" {
			return Outcome{Step: i + 1, Why: fmt.Sprintf("step %d (%s): %s", i+1, s.Action, why)}
		}
		cur, last = m.To, m
		actions = append(actions, m.Action)
	}
	return f.verdictAtEnd(t, prop, cur, last, actions)
}

// replayStep takes step s in cur and checks what the file says of it: the
// action's text and the messages it received and sent.
func replayStep(t checker.Stepper, info checker.Info, cur checker.State, s *Step) (checker.Move, string) {
	rule := info.RuleIndex(s.Rule)
	if rule < 0 {
		return checker.Move{}, fmt.Sprintf("the spec has no rule %q", s.Rule)
	}
	m, err := t.Step(cur, model.Action{Rule: rule, Proc: s.Process, Choice: s.Choice})
	switch {
	case err != nil:
		return m, err.Error()
	case m.Label != s.Action:
		return m, fmt.Sprintf("the spec says this action as %q, the trace as %q", m.Label, s.Action)
	case !slices.Equal(m.Received, s.Received):
		return m, fmt.Sprintf("it receives %s on replay, %s in the trace", messages(m.Received), messages(s.Received))
	case !slices.Equal(m.Sent, s.Sent):
		return m, fmt.Sprintf("it sends %s on replay, %s in the trace", messages(m.Sent), messages(s.Sent))
	}
	return m, ""
}

// messages renders a step's messages: "⟨elect 3⟩ on p1→p2", or "nothing".
func messages(ms []checker.Message) string {
	if len(ms) == 0 {
		return "nothing"
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = fmt.Sprintf("%s on p%d→p%d", m.Text, m.From, m.To)
	}
	return strings.Join(out, ", ")
}

// sameState compares a replayed state with a recorded one, variable by
// variable and then its picture, and says how they differ ("" when they do
// not).
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
	return sameView(snap.View, want.View)
}

// sameView compares a replayed state's picture with the recorded one.
func sameView(got, want *model.View) string {
	switch {
	case got == nil && want == nil:
		return ""
	case got == nil:
		return "the trace records a picture of the state, and the spec draws none"
	case want == nil:
		return "the spec draws a picture of the state, and the trace records none"
	case len(got.Procs) != len(want.Procs) || len(got.Chans) != len(want.Chans):
		return fmt.Sprintf("the picture has %d processes and %d links on replay, %d and %d in the trace", len(got.Procs), len(got.Chans), len(want.Procs), len(want.Chans))
	}
	for i, p := range got.Procs {
		if w := want.Procs[i]; p != w {
			return fmt.Sprintf("the picture shows process %d as %s on replay, %s in the trace", i, procText(p), procText(w))
		}
	}
	for i, l := range got.Chans {
		if w := want.Chans[i]; l.From != w.From || l.To != w.To || l.Name != w.Name || !slices.Equal(l.Msgs, w.Msgs) {
			return fmt.Sprintf("the picture shows link %d as %s on replay, %s in the trace", i, linkText(l), linkText(w))
		}
	}
	return ""
}

func procText(p model.ProcView) string {
	return strings.TrimSpace(fmt.Sprintf("%s (%s) %s", p.Name, p.Label, p.Status))
}

func linkText(l model.ChanView) string {
	return fmt.Sprintf("%s p%d→p%d holding [%s]", l.Name, l.From, l.To, strings.Join(l.Msgs, " "))
}
