package por

import (
	"bytes"
	"fmt"

	"github.com/ringcheck/mc/model"
)

// checkSituations checks, on every state of states (all the reachable
// ones), that each property's situation (model/vacuity.go) reads only what
// the property's Reads declares, so that reduction, which keeps every
// change of those variables, keeps the situation too: states that agree on
// the variables agree on a state subject (an invariant's Subject, a
// leads-to's From); transitions that agree on them before and after, and
// on the action's rule and process, agree on a step subject, which is
// false on every transition that leaves them unchanged. An end property's
// situation needs no such check: terminal states are kept exactly.
func checkSituations[S any](sys *model.System[S], states []S) error {
	for i := range sys.Props {
		p := &sys.Props[i]
		if p.Reads == nil {
			continue
		}
		switch p.Situation() {
		case model.InState:
			if err := stateSituation(p, states); err != nil {
				return err
			}
		case model.OnStep:
			if p.StepSubject == nil {
				continue
			}
			if err := stepSituation(sys, p, states); err != nil {
				return err
			}
		}
	}
	return nil
}

func stateSituation[S any](p *model.Property[S], states []S) error {
	subject, seen := p.SituationState(), map[string]bool{}
	for i := range states {
		key, holds := string(p.Reads(nil, &states[i])), subject(&states[i])
		if was, ok := seen[key]; ok && was != holds {
			return fmt.Errorf("property %s: its situation reads more than its Reads declares: two reachable states agree on what it reads but one is in its situation and the other not", p.Name)
		}
		seen[key] = holds
	}
	return nil
}

func stepSituation[S any](sys *model.System[S], p *model.Property[S], states []S) error {
	seen := map[string]bool{}
	var next S
	for i := range states {
		s := &states[i]
		before := p.Reads(nil, s)
		for a := range sys.Steps(s, &next) {
			after := p.Reads(nil, &next)
			holds := p.StepSubject(s, a, &next)
			if holds && bytes.Equal(before, after) {
				return fmt.Errorf("property %s: its situation holds on %s, a step that leaves what it reads unchanged", p.Name, sys.Label(s, a))
			}
			key := fmt.Sprintf("%x %d %d %x", before, a.Rule, a.Proc, after)
			if was, ok := seen[key]; ok && was != holds {
				return fmt.Errorf("property %s: its situation reads more than its Reads declares: two reachable steps of rule %s at p%d agree on what it reads but one is in its situation and the other not", p.Name, sys.Rules[a.Rule].Name, a.Proc)
			}
			seen[key] = holds
		}
	}
	return nil
}
