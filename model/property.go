package model

// Kind says when a property is evaluated.
type Kind int

const (
	// Invariant must hold in every reachable state.
	Invariant Kind = iota
	// Step must hold on every transition (before, action, after).
	Step
	// End must hold in every terminal state (no action enabled). A terminal
	// state that fails it is a deadlock.
	End
	// Witness must hold in at least one reachable state; it guards against
	// passes that are vacuously true ("a leader is elected").
	Witness
	// LeadsTo ("P leads to Q") must hold on every fair run: whenever a state
	// satisfies P, that state or a later one satisfies Q. See
	// package checker/liveness for what a fair run is.
	LeadsTo
	// Eventually ("eventually Q") must hold on every fair run from an
	// initial state: some state of the run satisfies Q. A run that stops in
	// a terminal state before Q holds violates it too.
	Eventually
)

// Liveness reports whether properties of kind k are about infinite (fair)
// runs rather than single states or transitions.
func (k Kind) Liveness() bool { return k == LeadsTo || k == Eventually }

func (k Kind) String() string {
	switch k {
	case Invariant:
		return "invariant"
	case Step:
		return "step"
	case End:
		return "end"
	case Witness:
		return "witness"
	case LeadsTo:
		return "leads-to"
	case Eventually:
		return "eventually"
	}
	return "unknown"
}

// Property is a named claim about a system. Exactly one of State and Trans is
// set: State for Invariant, End and Witness (the predicate), LeadsTo and
// Eventually (the goal Q; nil when the goal is Terminal); Trans for Step.
// From is P of "P leads to Q" and is set only for LeadsTo.
type Property[S any] struct {
	// Name is kebab-case and is shared by the CLI, JSON output and tests.
	Name string
	// Ref cites where the claim comes from: "002 §5.2", "Lemma 3.2".
	Ref  string
	Kind Kind
	// Doc says in one line what the property means.
	Doc   string
	State func(s *S) bool
	Trans func(before *S, a Action, after *S) bool
	From  func(s *S) bool
	// Terminal, for Eventually only, makes the goal "a terminal state" (no
	// action enabled), which no state predicate can say; State is then nil.
	Terminal bool
	// Reads, if not nil, appends to buf the values of the state variables
	// the property reads: whole variables (a process's local, a channel, a
	// ghost), always the same ones in the same layout, so that two states
	// give equal bytes exactly when they agree on those variables. A
	// component may also be a function of one process's locals, or a sum
	// over the messages in transit of a number computed from each message
	// alone (hp's count of messages past the round bound): an action then
	// changes it by an amount fixed by what the action itself reads, which
	// is all that partial-order reduction needs (package checker, lemma V).
	// The
	// property must depend on nothing else; a Step property may also depend
	// on the action's rule and process (not its choice index), and must
	// hold on every step that leaves these variables unchanged.
	// Partial-order reduction treats a step that changes them as visible.
	// Nil means the property may read anything: every step is visible, and
	// reduction is off for a system with such an invariant, step or
	// witness property.
	Reads func(buf []byte, s *S) []byte
	// Subject, Step and Unmet declare the property's situation, the states
	// or transitions its claim is about, so that a pass can say whether
	// the claim was ever put to the test (vacuity.go): Subject, for an
	// Invariant or End property, holds in a state where the claim has
	// something to say (an implication's antecedent, "two processes are
	// c-active"); StepSubject, for a Step property, on a transition it
	// constrains; Unmet says what never happened when no reached state or
	// transition was one, completing "pass (vacuous: …)". Set them with
	// When and WhenStep.
	Subject     func(s *S) bool
	StepSubject func(before *S, a Action, after *S) bool
	Unmet       string
	// Unconditional marks a property that every run puts to the test, so
	// that it is never vacuous although its kind's default situation may
	// not arise: the deadlock property of a spec with no proper end, whose
	// claim is that no terminal state is reached at all.
	Unconditional bool
}

// Reading returns p with Reads set to f.
func (p Property[S]) Reading(f func(buf []byte, s *S) []byte) Property[S] {
	p.Reads = f
	return p
}

// Saying returns p with Doc set to doc: a property from a library
// (package invariants) in the words of the spec's seed.
func (p Property[S]) Saying(doc string) Property[S] {
	p.Doc = doc
	return p
}

// InvariantProp builds an Invariant property.
func InvariantProp[S any](name, ref, doc string, f func(s *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: Invariant, Doc: doc, State: f}
}

// EndProp builds an End property.
func EndProp[S any](name, ref, doc string, f func(s *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: End, Doc: doc, State: f}
}

// WitnessProp builds a Witness property.
func WitnessProp[S any](name, ref, doc string, f func(s *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: Witness, Doc: doc, State: f}
}

// StepProp builds a Step property.
func StepProp[S any](name, ref, doc string, f func(before *S, a Action, after *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: Step, Doc: doc, Trans: f}
}

// LeadsToProp builds "from leads to to": on every fair run, every state
// satisfying from is followed (or accompanied) by a state satisfying to.
func LeadsToProp[S any](name, ref, doc string, from, to func(s *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: LeadsTo, Doc: doc, From: from, State: to}
}

// TerminationProp builds "eventually a terminal state": every fair run is
// finite. With an End property that every terminal state is good, it is
// termination.
func TerminationProp[S any](name, ref, doc string) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: Eventually, Doc: doc, Terminal: true}
}

// EventuallyProp builds "eventually goal": every fair run from an initial
// state reaches a state satisfying goal.
func EventuallyProp[S any](name, ref, doc string, goal func(s *S) bool) Property[S] {
	return Property[S]{Name: name, Ref: ref, Kind: Eventually, Doc: doc, State: goal}
}
