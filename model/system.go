package model

import (
	"fmt"
	"iter"
)

// System is one instantiated spec: a protocol with its parameters fixed. The
// checker explores it; it knows nothing about the protocol beyond these
// fields.
type System[S any] struct {
	// Spec and Variant name what is being checked ("changroberts", "canonical").
	Spec, Variant string
	// Params are the parameters the system was built from.
	Params Params
	// Procs is how many processes each rule is instantiated for.
	Procs int
	// Init lists the initial states, in a fixed order.
	Init []S
	// Rules are the guarded commands. Their order, then the process index,
	// then the choice index, is the deterministic order in which actions are
	// enumerated; a trace is (initial state index, action list) and replays.
	Rules []Rule[S]
	// Props are the properties the checker evaluates; it adds its own,
	// deadlock, after them (deadlock.go).
	Props []Property[S]
	// Ends, if not nil, says which terminal states (no action enabled)
	// are proper ends of a run: a terminal state it rejects is a
	// deadlock. Nil means none is, so that every terminal state is a
	// deadlock, as TLC has it. A spec whose end properties say what a
	// good end is declares every terminal state proper (EveryEnd) and
	// leaves the judging to them (deadlock.go).
	Ends func(s *S) bool
	// Measures are the quantities whose maximum over all reachable states
	// the checker reports (nil for none). See measure.go.
	Measures []Measure[S]
	// Termination, if not nil, is a measure that every transition
	// decreases (termination.go): with it, liveness is decided without
	// storing the state graph.
	Termination *Termination[S]
	// Copy makes dst an independent copy of src, reusing dst's storage.
	Copy func(dst, src *S)
	// Encode appends the canonical encoding of s to buf.
	Encode func(buf []byte, s *S) []byte
	// Decode is the inverse of Encode: it overwrites s, reusing its storage.
	Decode func(data []byte, s *S) error
	// Erase zeroes the ghost (history) variables of s; nil when the spec has
	// none. See ghost.go.
	Erase func(s *S)
	// Vars lists the state's variables for a person to read, always with the
	// same names in the same order, e.g. "p2.decided" = "leader". Traces
	// print the ones that change at each step.
	Vars func(s *S) []Var
	// View, if not nil, pictures the state for mc's drawings: process
	// statuses and the messages pending on each channel (view.go).
	View func(s *S) View
	// InTransit, if not nil, lists the messages View's Chans show, without
	// formatting them: it calls visit once for every message in transit in
	// s, in View's order (channel by channel as View.Chans, each channel's
	// messages as its Msgs), with the channel's index in View.Chans, the
	// message's kind (KindOf) and bytes that tell it apart from every other
	// message of the spec (its canonical encoding). msg is valid during the
	// call only. Sweeps read it on every state of a graph to find the
	// messages each step sent, where View, made for the few states a person
	// looks at, would take most of their time; specs/intransit_test.go
	// checks that the two agree.
	InTransit func(s *S, visit func(ch int, kind string, msg []byte))
	// Chans gives the semantics of the channels that rule footprints name,
	// by number (footprint.go); nil when no rule declares a footprint.
	Chans []ChanSemantics
	// ChanLen, if not nil, is the number of messages in channel c of s.
	// Partial-order reduction reads it to leave out the senders to a FIFO
	// channel that is not empty, since they cannot change its oldest
	// message (package checker, C1 (b)); without it a rule that receives
	// from two channels waits for the senders to both, always.
	ChanLen func(s *S, c int) int
}

// Var is one named variable of a state, rendered for a person.
type Var struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Rule is a guarded command, instantiated once per process p and, where a
// rule has several ways to fire (which message of a bag to receive), once per
// choice k.
type Rule[S any] struct {
	// Name is the paper's word for the action: "start", "recv".
	Name string
	// Ref is the seed section the action comes from, e.g. "002 §5.2".
	Ref string
	// Guard reports whether the rule is enabled at process p.
	Guard func(s *S, p int) bool
	// Choices, if not nil, is the number of ways the enabled rule can fire at
	// p (at least 1 when Guard holds). Nil means one.
	Choices func(s *S, p int) int
	// Do applies the effect of choice k at p to s in place. It returns false
	// when the effect cannot happen because a send would overflow a bounded
	// channel; the action is then blocked (not enabled), as a send on a full
	// channel blocks in Promela.
	Do func(s *S, p, k int) bool
	// Label describes the action in the state before it, as the paper would
	// say it: "recv p2 ⟨elect 5⟩". Nil means "<name> p<p>".
	Label func(s *S, p, k int) string
	// Env marks an environment action: something that happens to the
	// protocol rather than a step it promises to take, such as a user asking
	// for the critical section or a channel losing a token. Fairness never
	// forces an environment action (it may stay enabled forever and never
	// happen), and it does not count as its process taking a step.
	Env bool
	// Footprint, if not nil, declares what the rule may touch at p
	// (footprint.go); partial-order reduction needs it. Nil means the rule
	// may touch anything, so it is dependent on every other action.
	Footprint func(p int) Footprint
	// Ready, if not nil, is the part of Guard that reads only process p's
	// own variables: Guard implies it, and only p's own rules change it.
	// While it is false no other process can enable the rule, so
	// partial-order reduction need not take the senders to p's channels
	// along (package checker, C1 (b)): dkr's recv waits for its process to
	// start, and only the process itself starts.
	Ready func(s *S, p int) bool
}

// Action names one instance of a rule: rule index, process and choice.
type Action struct {
	Rule, Proc, Choice int
}

// Label renders action a taken in state s.
func (sys *System[S]) Label(s *S, a Action) string {
	r := &sys.Rules[a.Rule]
	if r.Label != nil {
		return r.Label(s, a.Proc, a.Choice)
	}
	return fmt.Sprintf("%s p%d", r.Name, a.Proc)
}

// ChoicesAt returns how many ways rule r can fire at p in s (0 when disabled).
func (r *Rule[S]) ChoicesAt(s *S, p int) int {
	if !r.Guard(s, p) {
		return 0
	}
	if r.Choices == nil {
		return 1
	}
	return r.Choices(s, p)
}

// Apply computes the successor of s under a into dst. It returns false if the
// action is not enabled in s (its guard fails, the choice is out of range, or
// a send blocks).
func (sys *System[S]) Apply(s *S, a Action, dst *S) bool {
	if a.Rule < 0 || a.Rule >= len(sys.Rules) || a.Proc < 0 || a.Proc >= sys.Procs {
		return false
	}
	r := &sys.Rules[a.Rule]
	if a.Choice < 0 || a.Choice >= r.ChoicesAt(s, a.Proc) {
		return false
	}
	sys.Copy(dst, s)
	return r.Do(dst, a.Proc, a.Choice)
}

// Steps yields every action enabled in s, in enumeration order (the rules
// in order, then the processes, then the choices), with its successor built
// in next, which each step overwrites: an action whose Do refuses (a send
// that blocks) is not enabled. It is the successor kernel (Successors) as
// a range-over-func sequence, for callers off the hot paths.
func (sys *System[S]) Steps(s, next *S) iter.Seq[Action] {
	return func(yield func(Action) bool) {
		succ := sys.Successors(0)
		for succ.Of(s); succ.Next(next); {
			if !yield(succ.Action()) {
				return
			}
		}
	}
}

// FirstRun follows, from initial state 0, the run that always takes the
// first enabled action in enumeration order, for at most maxSteps steps. It
// returns the last state and whether it is terminal. Specs use it for a
// reference run: in a system whose outcome does not depend on the schedule,
// any one run tells what every run must end with.
func (sys *System[S]) FirstRun(maxSteps int) (S, bool) {
	var s, t S
	sys.Copy(&s, &sys.Init[0])
	for range maxSteps {
		if !sys.firstStep(&s, &t) {
			return s, true
		}
		s, t = t, s
	}
	return s, !sys.firstStep(&s, &t)
}

// firstStep applies the first enabled action of s into dst; false if none.
func (sys *System[S]) firstStep(s, dst *S) bool {
	for range sys.Steps(s, dst) {
		return true
	}
	return false
}
