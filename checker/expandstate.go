package checker

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Expansion is one state's successors and what its state and step
// properties say there, with nothing rendered for a person (unlike
// Stepper's Moves and Inspect): what a search that ships states between
// processes needs per state (mc-beam check).
type Expansion struct {
	Moves []Successor
	// Failed lists the invariants that fail in the state, and, when it
	// is terminal (no move), the end properties that fail there.
	Failed []string
	// Witnessed lists the witness properties that hold in the state.
	Witnessed []string
}

// Successor is one enabled action, the state it leads to, and the step
// properties that transition violates.
type Successor struct {
	Action model.Action
	To     State
	Broken []string
}

// stateExpander is implemented by every Target that Of makes.
type stateExpander interface {
	expand(s State) (Expansion, error)
}

// Expand expands s, a state of t, in the checker's enumeration order.
func Expand(t Target, s State) (Expansion, error) {
	e, ok := t.(stateExpander)
	if !ok {
		return Expansion{}, fmt.Errorf("internal error: %T cannot expand states", t)
	}
	return e.expand(s)
}

func (t target[S]) expand(s State) (Expansion, error) {
	x, err := t.decode(s)
	if err != nil {
		return Expansion{}, err
	}
	var out Expansion
	var next S
	for a := range t.sys.Steps(&x, &next) {
		m := Successor{Action: a, To: t.state(&next)}
		for _, pr := range t.sys.Props {
			if pr.Kind == model.Step && !pr.Trans(&x, a, &next) {
				m.Broken = append(m.Broken, pr.Name)
			}
		}
		out.Moves = append(out.Moves, m)
	}
	for _, pr := range t.sys.Props {
		switch pr.Kind {
		case model.Invariant:
			if !pr.State(&x) {
				out.Failed = append(out.Failed, pr.Name)
			}
		case model.End:
			if len(out.Moves) == 0 && !pr.State(&x) {
				out.Failed = append(out.Failed, pr.Name)
			}
		case model.Witness:
			if pr.State(&x) {
				out.Witnessed = append(out.Witnessed, pr.Name)
			}
		}
	}
	return out, nil
}
