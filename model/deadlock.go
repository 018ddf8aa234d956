package model

// Deadlock is the name of the property the checker adds to every system
// unless told not to (mc check --no-deadlock): "every terminal state is a
// proper end" (System.Ends). A run that stops where the spec did not mean
// it to stop is a deadlock, as TLC reports one. An end property is a
// further claim about the terminal states, which a spec words itself
// ("every terminal state is a finished election"); a terminal state that
// fails either is reported as a deadlock, under that property's name.
const Deadlock = "deadlock"

// DeadlockRef is what the deadlock property cites: no seed, mc itself.
const DeadlockRef = "built in"

// EveryEnd declares every terminal state a proper end (System.Ends): for a
// spec whose end and liveness properties judge its terminal states
// (election-complete, request-granted), so that a bad one is reported
// under their names.
func EveryEnd[S any](*S) bool { return true }

// WithDeadlock returns a copy of sys with the deadlock property after its
// own: an end property that holds in the terminal states sys.Ends accepts,
// and in none when sys.Ends is nil. It is evaluated where the end
// properties are, on terminal states only, so it costs the search nothing
// beyond the terminal states it already finds.
func (sys *System[S]) WithDeadlock() *System[S] {
	out := *sys
	out.Props = append(append(make([]Property[S], 0, len(sys.Props)+1), sys.Props...), DeadlockProp(sys.Ends))
	return &out
}

// DeadlockProp is the deadlock property of a system whose proper ends are
// ends (nil: none).
func DeadlockProp[S any](ends func(s *S) bool) Property[S] {
	if ends == nil {
		// Its claim is that no terminal state is reached at all: a run that
		// never stops is the claim holding, not a vacuous pass.
		p := EndProp(Deadlock, DeadlockRef, "no run stops: the spec declares no proper end, so a terminal state (no action enabled) is a deadlock",
			func(*S) bool { return false })
		p.Unconditional = true
		return p
	}
	return EndProp(Deadlock, DeadlockRef, "every terminal state (no action enabled) is one the spec declares a proper end", ends)
}
