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
)

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
	}
	return "unknown"
}

// Property is a named claim about a system. Exactly one of State and Trans is
// set: State for Invariant, End and Witness; Trans for Step.
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
	// Reads, if not nil, appends to buf the values of the state variables
	// the property reads: whole variables (a process's local, a channel, a
	// ghost), always the same ones in the same layout, so that two states
	// give equal bytes exactly when they agree on those variables. The
	// property must depend on nothing else; a Step property may also depend
	// on the action's rule and process (not its choice index), and must
	// hold on every step that leaves these variables unchanged.
	// Partial-order reduction treats a step that changes them as visible.
	// Nil means the property may read anything: every step is visible, and
	// reduction is off for a system with such an invariant, step or
	// witness property.
	Reads func(buf []byte, s *S) []byte
}

// Reading returns p with Reads set to f.
func (p Property[S]) Reading(f func(buf []byte, s *S) []byte) Property[S] {
	p.Reads = f
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
