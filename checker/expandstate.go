package checker

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Expansion is one state's successors and what its end and step
// properties say there, with nothing rendered for a person (unlike
// Stepper's Moves and Inspect): what a search that ships states between
// processes needs per state it expands (mc-beam check). The invariants
// and witnesses are Judge's, asked when the state is found.
type Expansion struct {
	Moves []Successor
	// Ended lists, when the state is terminal (no move), the end
	// properties that fail there: known only once it is expanded.
	Ended []string
}

// Successor is one enabled action, the state it leads to, and the step
// properties that transition violates.
type Successor struct {
	Action model.Action
	To     State
	Broken []string
}

// Judgement is what the invariants and witnesses say of one state.
type Judgement struct {
	// Failed lists the invariants that fail in the state.
	Failed []string
	// Witnessed lists the witness properties that hold in it.
	Witnessed []string
}

// stateExpander is implemented by every Target that Of makes.
type stateExpander interface {
	expand(s State, met []bool) (Expansion, error)
	judge(s State, met []bool) (Judgement, error)
}

// Expand expands s, a state of t, in the checker's enumeration order.
// met, one entry per property of t (Props), is the caller's record of the
// situations (model/vacuity.go) met so far, as the search keeps it: a
// property's step or end situation is looked for only while its entry is
// false, and the entry is set when one of s's moves, or s's end when it is
// terminal, meets it. A search ORs these, with Judge's, over its states to
// tell a vacuous pass.
func Expand(t Target, s State, met []bool) (Expansion, error) {
	e, ok := t.(stateExpander)
	if !ok {
		return Expansion{}, fmt.Errorf("internal error: %T cannot expand states", t)
	}
	return e.expand(s, met)
}

// Judge evaluates t's invariants and witnesses in s. The search asks it
// of a state when it first finds the state (when it admits it to the
// next level), not when it expands it: a run that stops at the first
// violation stops at the end of the level whose expansion found the
// violating state, and a search that judged states only when expanding
// them would expand one level more, and count its successors, before
// stopping (mc-beam check once did, and reported more states than mc
// check). met is as for Expand: an invariant's subject or a leads-to's
// premise is looked for in s only while its entry is false, and the entry
// is set when s meets it.
func Judge(t Target, s State, met []bool) (Judgement, error) {
	e, ok := t.(stateExpander)
	if !ok {
		return Judgement{}, fmt.Errorf("internal error: %T cannot judge states", t)
	}
	return e.judge(s, met)
}

func (t target[S]) expand(s State, met []bool) (Expansion, error) {
	x, err := t.decode(s)
	if err != nil {
		return Expansion{}, err
	}
	var out Expansion
	var next S
	for a := range t.sys.Steps(&x, &next) {
		m := Successor{Action: a, To: t.state(&next)}
		for i, pr := range t.sys.Props {
			if pr.Kind == model.Step && !pr.Trans(&x, a, &next) {
				m.Broken = append(m.Broken, pr.Name)
			}
			if !met[i] && pr.MetOnStep(&x, a, &next) {
				met[i] = true
			}
		}
		out.Moves = append(out.Moves, m)
	}
	if len(out.Moves) == 0 {
		for i, pr := range t.sys.Props {
			if pr.Kind == model.End && !pr.State(&x) {
				out.Ended = append(out.Ended, pr.Name)
			}
			if !met[i] && pr.MetAtEnd(&x) {
				met[i] = true
			}
		}
	}
	return out, nil
}

func (t target[S]) judge(s State, met []bool) (Judgement, error) {
	x, err := t.decode(s)
	if err != nil {
		return Judgement{}, err
	}
	var out Judgement
	for i, pr := range t.sys.Props {
		if !met[i] && pr.MetInState(&x) {
			met[i] = true
		}
		switch {
		case pr.Kind == model.Invariant && !pr.State(&x):
			out.Failed = append(out.Failed, pr.Name)
		case pr.Kind == model.Witness && pr.State(&x):
			out.Witnessed = append(out.Witnessed, pr.Name)
		}
	}
	return out, nil
}
