package checker

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Stepper walks a system one action at a time with its state type erased:
// what mc explore and mc trace --replay need. Nothing is explored ahead:
// successors are computed when asked for.
type Stepper interface {
	// Info describes the system: spec, parameters, rules and properties.
	Info() Info
	// Initial returns the initial states in the spec's order.
	Initial() []State
	// Moves lists the actions enabled in s, in the checker's enumeration
	// order (rule, then process, then choice), each with its successor.
	Moves(s State) ([]Move, error)
	// Step takes action a in s. It fails if a is not enabled there.
	Step(s State, a model.Action) (Move, error)
	// Inspect describes s for a person: its variables, its view, whether it
	// is terminal and which state properties hold in it.
	Inspect(s State) (Snapshot, error)
	// Vars is s's variables, as Inspect gives them, without the rest of
	// Inspect's work: what describes many states at once needs (mc
	// explore's list of initial states).
	Vars(s State) ([]model.Var, error)
	// VerifyLasso checks that the run from initial state init through
	// actions is a counterexample to the liveness property called prop
	// under fairness fair, as the checker's own counterexamples are
	// checked (liveness.Verify): either loopStart ≥ 0, the last state is the
	// state after loopStart steps and the loop from there is fair, or
	// loopStart < 0 and the run ends in a terminal state; and the
	// property's goal never holds from where it is awaited on.
	VerifyLasso(prop string, fair model.Fairness, init int, actions []model.Action, loopStart int) error
}

// State is one state of a Stepper, held as its canonical encoding. States
// are made only by a Stepper, so they always decode; two states are the same
// state exactly when they are equal.
type State struct{ enc string }

// Key is the state's fingerprint, stable across runs.
func (s State) Key() uint64 { return model.Fingerprint([]byte(s.enc)) }

// Encoding is s's canonical encoding: what carries a state from one
// process to another (mc-beam writes it to shard files between the
// stages of a pipeline).
func (s State) Encoding() []byte { return []byte(s.enc) }

// StateOf is the state whose canonical encoding is enc, as Encoding gave
// it. A Stepper's methods refuse a state that does not decode for their
// system.
func StateOf(enc []byte) State { return State{enc: string(enc)} }

// Info describes a system.
type Info struct {
	Spec, Variant string
	Params        model.Params
	Procs         int
	Rules         []RuleInfo
	Props         []PropInfo
}

// RuleInfo describes one rule. Env marks an environment action, which no
// fairness assumption forces (model.Fairness).
type RuleInfo struct {
	Name, Ref string
	Env       bool
}

// RuleIndex returns the index of the rule called name, or -1.
func (i *Info) RuleIndex(name string) int {
	for k, r := range i.Rules {
		if r.Name == name {
			return k
		}
	}
	return -1
}

// Move is one enabled action and where it leads.
type Move struct {
	Action model.Action
	// Rule is the rule's name ("recv") and Label the action as the paper
	// would say it ("recv p2 ⟨elect 5⟩").
	Rule, Label string
	// Sent and Received are the messages the action put on and took off the
	// channels; empty when the spec has no View.
	Sent, Received []Message
	// Broken lists the step properties this transition violates.
	Broken []string
	To     State
}

// Message is one message on the directed link From → To.
type Message struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Text string `json:"message"`
}

// Snapshot is a state as a person reads it.
type Snapshot struct {
	Vars []model.Var
	// View is nil when the spec has none.
	View *model.View
	// Terminal holds when no action is enabled.
	Terminal bool
	// Props has one entry per invariant, end and witness property, in the
	// system's order.
	Props []PropStatus
	// Goals has one entry per liveness property, in the system's order.
	Goals []GoalStatus
}

// GoalStatus is a liveness property's predicates in one state: From is P of
// "P leads to Q" (false for "eventually Q", which is about initial states),
// Goal is Q (for a termination property: the state is terminal).
type GoalStatus struct {
	Name       string
	Kind       model.Kind
	From, Goal bool
}

// PropStatus is a state property evaluated in one state. An end property is
// evaluated only in a terminal state (Evaluated false elsewhere); for a
// witness, Holds says whether this state is one the witness looks for.
type PropStatus struct {
	Name      string
	Kind      model.Kind
	Evaluated bool
	Holds     bool
}

// Messages compares the channels of two views, before and after one step,
// and returns the messages the step sent (added to a link, by the link's
// sender) and received (removed from a link, by its receiver). Links are
// compared as multisets of rendered messages, which is exact for FIFO and
// bag channels alike, with one blind spot: a step that takes a message off a
// link and puts an equal one back on the same link shows neither.
func Messages(before, after *model.View) (sent, received []Message) {
	if before == nil || after == nil || len(before.Chans) != len(after.Chans) {
		return nil, nil
	}
	for i := range before.Chans {
		b, a := &before.Chans[i], &after.Chans[i]
		for _, m := range minus(b.Msgs, a.Msgs) {
			received = append(received, Message{From: b.From, To: b.To, Text: m})
		}
		for _, m := range minus(a.Msgs, b.Msgs) {
			sent = append(sent, Message{From: a.From, To: a.To, Text: m})
		}
	}
	return sent, received
}

// minus returns the multiset difference xs − ys, in xs's order.
func minus(xs, ys []string) []string {
	left := make(map[string]int, len(ys))
	for _, y := range ys {
		left[y]++
	}
	var out []string
	for _, x := range xs {
		if left[x] > 0 {
			left[x]--
			continue
		}
		out = append(out, x)
	}
	return out
}

func (t target[S]) Info() Info {
	rules := make([]RuleInfo, len(t.sys.Rules))
	for i, r := range t.sys.Rules {
		rules[i] = RuleInfo{Name: r.Name, Ref: r.Ref, Env: r.Env}
	}
	return Info{Spec: t.sys.Spec, Variant: t.sys.Variant, Params: t.sys.Params, Procs: t.sys.Procs, Rules: rules, Props: t.Props()}
}

func (t target[S]) Initial() []State {
	out := make([]State, len(t.sys.Init))
	for i := range t.sys.Init {
		out[i] = t.state(&t.sys.Init[i])
	}
	return out
}

func (t target[S]) state(s *S) State { return State{enc: string(t.sys.Encode(nil, s))} }

func (t target[S]) decode(s State) (S, error) {
	var x S
	if err := t.sys.Decode([]byte(s.enc), &x); err != nil {
		return x, fmt.Errorf("state does not belong to spec %s: %v", t.sys.Spec, err)
	}
	return x, nil
}

func (t target[S]) Moves(s State) ([]Move, error) {
	x, err := t.decode(s)
	if err != nil {
		return nil, err
	}
	var out []Move
	var next S
	for a := range t.sys.Steps(&x, &next) {
		out = append(out, t.moveTo(&x, a, &next))
	}
	return out, nil
}

func (t target[S]) Step(s State, a model.Action) (Move, error) {
	x, err := t.decode(s)
	if err != nil {
		return Move{}, err
	}
	m, ok := t.move(&x, a)
	if !ok {
		return Move{}, fmt.Errorf("action %s (rule %d, process %d, choice %d) is not enabled", t.describe(&x, a), a.Rule, a.Proc, a.Choice)
	}
	return m, nil
}

// describe names a, even when it is not enabled in s.
func (t target[S]) describe(s *S, a model.Action) string {
	if a.Rule < 0 || a.Rule >= len(t.sys.Rules) || a.Proc < 0 || a.Proc >= t.sys.Procs {
		return "(no such rule or process)"
	}
	if a.Choice >= 0 && a.Choice < t.sys.Rules[a.Rule].ChoicesAt(s, a.Proc) {
		return t.sys.Label(s, a)
	}
	return fmt.Sprintf("%s p%d", t.sys.Rules[a.Rule].Name, a.Proc)
}

// move takes a in s, if it is enabled, and describes the transition.
func (t target[S]) move(s *S, a model.Action) (Move, bool) {
	var next S
	if !t.sys.Apply(s, a, &next) {
		return Move{}, false
	}
	return t.moveTo(s, a, &next), true
}

// moveTo describes the transition from s by a, enabled, to next.
func (t target[S]) moveTo(s *S, a model.Action, next *S) Move {
	m := Move{Action: a, Rule: t.sys.Rules[a.Rule].Name, Label: t.sys.Label(s, a), To: t.state(next)}
	if t.sys.View != nil {
		before, after := t.sys.View(s), t.sys.View(next)
		m.Sent, m.Received = Messages(&before, &after)
	}
	for _, p := range t.sys.Props {
		if p.Kind == model.Step && !p.Trans(s, a, next) {
			m.Broken = append(m.Broken, p.Name)
		}
	}
	return m
}

func (t target[S]) Vars(s State) ([]model.Var, error) {
	x, err := t.decode(s)
	if err != nil {
		return nil, err
	}
	return t.sys.Vars(&x), nil
}

func (t target[S]) Inspect(s State) (Snapshot, error) {
	x, err := t.decode(s)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Vars: t.sys.Vars(&x), Terminal: t.terminal(&x)}
	if t.sys.View != nil {
		v := t.sys.View(&x)
		snap.View = &v
	}
	for _, p := range t.sys.Props {
		if p.Kind.Liveness() {
			g := GoalStatus{Name: p.Name, Kind: p.Kind, From: p.From != nil && p.From(&x), Goal: snap.Terminal}
			if !p.Terminal {
				g.Goal = p.State(&x)
			}
			snap.Goals = append(snap.Goals, g)
			continue
		}
		if p.Kind == model.Step {
			continue // about transitions, not one state
		}
		st := PropStatus{Name: p.Name, Kind: p.Kind, Evaluated: p.Kind != model.End || snap.Terminal}
		if st.Evaluated {
			st.Holds = p.State(&x)
		}
		snap.Props = append(snap.Props, st)
	}
	return snap, nil
}

// terminal reports whether no action is enabled in s.
func (t target[S]) terminal(s *S) bool {
	var next S
	for range t.sys.Steps(s, &next) {
		return false
	}
	return true
}
