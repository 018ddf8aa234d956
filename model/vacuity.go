package model

import "fmt"

// Vacuity. A property passes vacuously when its claim was never put to the
// test: an implication whose antecedent no reached state satisfied, a step
// property whose precondition no transition met, "P leads to Q" where no
// reached state satisfied P. Such a pass says nothing about the protocol
// (a lemma about phase 3 "holds" on a ring that never gets past phase 1),
// so the checker records, per property, whether its situation arose in the
// run and reports a pass where it did not as vacuous, saying what never
// happened (Unmet).
//
// A property's situation is, by kind:
//
//   - Invariant: the states where Subject holds; without a Subject, every
//     state, and an invariant is never vacuous (a run has an initial
//     state);
//   - Step: the transitions where StepSubject holds; without one, every
//     transition (vacuous when no transition was taken);
//   - End: the terminal states where Subject holds; without one, every
//     terminal state (vacuous when the run never stops);
//   - LeadsTo: the states where From (P) holds;
//   - Witness: none. A witness is itself the check that something happens;
//   - Eventually: an initial state, which every run has: never vacuous.
//
// The situation must be as exact as the claim. Subject and StepSubject must
// read only what the property's Reads declares (and a StepSubject, like
// Trans, may also read the action's rule and process, and must be false on
// every step that leaves those variables unchanged), so that partial-order
// reduction, which keeps every visible change, keeps the situation too;
// por.CheckFootprints checks both on the reachable states of the specs'
// tests. An End property's Subject may read anything: terminal states are
// kept exactly.

// When returns p, an Invariant or End property, with its situation: the
// states where subject holds (for an End property, the terminal ones).
// unmet says what never happened if no reached state was one: "no state
// had two c-active processors".
func (p Property[S]) When(unmet string, subject func(s *S) bool) Property[S] {
	p.Subject, p.Unmet = subject, unmet
	return p
}

// WhenStep returns p, a Step property, with its situation: the transitions
// where subject holds. unmet says what never happened if no transition was
// one: "no process turned lost".
func (p Property[S]) WhenStep(unmet string, subject func(before *S, a Action, after *S) bool) Property[S] {
	p.StepSubject, p.Unmet = subject, unmet
	return p
}

// SayingUnmet returns p with Unmet set: for a property whose situation is
// its kind's default (a leads-to's P, an end property's terminal states),
// what never happened in the words of its claim: "p0 never waited".
func (p Property[S]) SayingUnmet(unmet string) Property[S] {
	p.Unmet = unmet
	return p
}

// Situation says where the checker looks for a property's situation.
type Situation int

const (
	// Always: every run puts the property to the test; it is never
	// vacuous.
	Always Situation = iota
	// InState: a reached state satisfying SituationState.
	InState
	// OnStep: a transition taken satisfying StepSubject, or any one when
	// it is nil.
	OnStep
	// AtEnd: a terminal state reached satisfying Subject, or any one when
	// it is nil.
	AtEnd
)

// Situation is where p's situation is looked for (see the section above).
func (p *Property[S]) Situation() Situation {
	switch {
	case p.Unconditional:
		return Always
	case p.Kind == Invariant && p.Subject != nil, p.Kind == LeadsTo:
		return InState
	case p.Kind == Step:
		return OnStep
	case p.Kind == End:
		return AtEnd
	}
	return Always
}

// SituationState is the state predicate of a property whose situation is
// InState: an invariant's Subject, a leads-to's From.
func (p *Property[S]) SituationState() func(s *S) bool {
	if p.Kind == LeadsTo {
		return p.From
	}
	return p.Subject
}

// MetInState reports whether the reached state s is p's situation: an
// invariant's subject or a leads-to's premise that s satisfies.
func (p *Property[S]) MetInState(s *S) bool {
	return p.Situation() == InState && p.SituationState()(s)
}

// MetOnStep reports whether the transition before → after by a is p's
// situation: a step property's, where its StepSubject holds (any
// transition without one).
func (p *Property[S]) MetOnStep(before *S, a Action, after *S) bool {
	return p.Situation() == OnStep && (p.StepSubject == nil || p.StepSubject(before, a, after))
}

// MetAtEnd reports whether s, a terminal state, is p's situation: an end
// property's, where its Subject holds (any terminal state without one).
func (p *Property[S]) MetAtEnd(s *S) bool {
	return p.Situation() == AtEnd && (p.Subject == nil || p.Subject(s))
}

// UnmetPhrase says what never happened when p's situation did not arise:
// Unmet, or its kind's default.
func (p *Property[S]) UnmetPhrase() string {
	switch {
	case p.Unmet != "":
		return p.Unmet
	case p.Kind == Step:
		return "no transition was taken"
	case p.Kind == End:
		return "no terminal state was reached"
	case p.Kind == LeadsTo:
		return "no reached state satisfied its premise"
	}
	return ""
}

// CheckSituation refuses a situation declared where the checker cannot
// look for it: a state subject on a property other than an invariant or
// an end property, a step subject other than on a step property, or a
// subject that does not say what it means when unmet.
func (p *Property[S]) CheckSituation() error {
	switch {
	case p.Subject != nil && p.Kind != Invariant && p.Kind != End:
		return fmt.Errorf("property %s: a %s property takes no state subject (model.Property.When is for invariants and end properties)", p.Name, p.Kind)
	case p.StepSubject != nil && p.Kind != Step:
		return fmt.Errorf("property %s: a %s property takes no step subject (model.Property.WhenStep is for step properties)", p.Name, p.Kind)
	case (p.Subject != nil || p.StepSubject != nil) && p.Unmet == "":
		return fmt.Errorf("property %s declares a subject but not what never happened when it is unmet", p.Name)
	}
	return nil
}
