package tokentemplate

import (
	"fmt"
	"strings"
)

// Template is one process of a unidirectional token ring: every process of
// a ring of any size runs it, from local state 0, and process 0 starts
// with the token (docs/every-n.md says why the token's first holder does
// not matter to the properties).
type Template struct {
	// Name and Ref name the protocol and its source, as a spec's.
	Name, Ref string
	// States names the local states; 0 is the initial one. At most
	// MaxStates.
	States []string
	// Var is what a trace calls a process's local state: "phase".
	Var string
	// Actions are the process's actions, in the order the system's rules
	// take.
	Actions []Action
	// Props are the properties, each an indexed formula of a known shape.
	Props []Prop
}

// MaxStates bounds a template's local states (one byte each).
const MaxStates = 256

// Token is what an action or atom needs of the token at its process.
type Token uint8

const (
	// AnyToken: with the token or without it.
	AnyToken Token = iota
	// Held: the process holds the token (it is in its input channel, or
	// the process keeps it).
	Held
	// Free: the process does not hold the token.
	Free
)

func (t Token) String() string {
	switch t {
	case Held:
		return "with the token"
	case Free:
		return "without the token"
	}
	return "with or without the token"
}

// Action is one action of the template: from local state m.From it may
// go to m.To, for each move m, when the token condition holds. Several
// moves from one state are the action's choices.
type Action struct {
	Name, Ref string
	// Env marks an environment action (model.Rule.Env).
	Env   bool
	Token Token
	// Sends passes the token to the successor: only Held actions may.
	Sends bool
	Moves []Move
}

// Move is one local transition of an action.
type Move struct{ From, To int }

// Atom is a predicate on one process: its local state is among States,
// and its token condition holds.
type Atom struct {
	States []int
	Token  Token
}

// Shape is the form of an indexed property: it fixes its fragment of
// indexed CTL*\X and its number of indices.
type Shape uint8

const (
	// Always is ∀i AG a(i): one index.
	Always Shape = iota
	// Never is ∀ distinct i1..ik AG ¬(a1(i1) ∧ … ∧ ak(ik)): k indices,
	// one per atom. Mutual exclusion is Never with two atoms.
	Never
	// Reachable is ∀i EF a(i) (a witness per process): one index.
	Reachable
	// LeadsTo is ∀i AG(a(i) → AF b(i)): one index, a liveness property.
	LeadsTo
	// NeverNeighbours is ∀i AG ¬(a(i) ∧ b(i+1)): a process and its
	// successor, the neighbour-indexed form ∀i f(i, i+1).
	NeverNeighbours
)

func (s Shape) String() string {
	if s > NeverNeighbours {
		return fmt.Sprintf("shape %d", s)
	}
	return [...]string{"always", "never", "reachable", "leads-to", "never-neighbours"}[s]
}

// Prop is one indexed property. Doc may hold "{i}", replaced by the
// process ("p2") in the per-process properties (Reachable, LeadsTo), which
// are named Name-p<i>.
type Prop struct {
	Name, Ref, Doc string
	Shape          Shape
	// Atoms: one for Always and Reachable, two (from, to) for LeadsTo,
	// two (i, i+1) for NeverNeighbours, k ≥ 1 for Never.
	Atoms []Atom
}

// Indices is the number of process indices the property names: for
// NeverNeighbours two, of which the second is the first's successor.
func (p Prop) Indices() int {
	switch p.Shape {
	case Never:
		return len(p.Atoms)
	case NeverNeighbours:
		return 2
	}
	return 1
}

// Validate checks what the template's construction cannot: well-formed
// data, token passing only, and a token that can always move on. Each
// error names the hypothesis (docs/every-n.md) that fails.
func (t *Template) Validate() error {
	if len(t.States) == 0 || len(t.States) > MaxStates {
		return fmt.Errorf("template %s: %d local states; it needs 1 to %d", t.Name, len(t.States), MaxStates)
	}
	seen := map[string]bool{}
	for _, a := range t.Actions {
		if a.Name == "" || seen[a.Name] {
			return fmt.Errorf("template %s: action name %q empty or repeated", t.Name, a.Name)
		}
		seen[a.Name] = true
		if a.Sends && a.Token != Held {
			return fmt.Errorf("template %s: action %s sends the token %s (token passing only: only the holder sends it)", t.Name, a.Name, a.Token)
		}
		for _, m := range a.Moves {
			if !t.isState(m.From) || !t.isState(m.To) {
				return fmt.Errorf("template %s: action %s moves %d → %d, not local states", t.Name, a.Name, m.From, m.To)
			}
		}
	}
	names := map[string]bool{}
	for _, p := range t.Props {
		if p.Name == "" || names[p.Name] {
			return fmt.Errorf("template %s: property name %q empty or repeated", t.Name, p.Name)
		}
		names[p.Name] = true
		want := map[Shape]int{Always: 1, Reachable: 1, LeadsTo: 2, NeverNeighbours: 2}[p.Shape]
		if p.Shape > NeverNeighbours || (p.Shape == Never && len(p.Atoms) == 0) || (p.Shape != Never && len(p.Atoms) != want) {
			return fmt.Errorf("template %s: property %s: shape %s with %d atoms", t.Name, p.Name, p.Shape, len(p.Atoms))
		}
		for _, at := range p.Atoms {
			for _, s := range at.States {
				if !t.isState(s) {
					return fmt.Errorf("template %s: property %s names local state %d", t.Name, p.Name, s)
				}
			}
		}
	}
	return t.passesTheToken()
}

func (t *Template) isState(s int) bool { return s >= 0 && s < len(t.States) }

// passesTheToken checks the theorems' condition on a process holding the
// token (docs/every-n.md, "The hypotheses"): as long as it keeps moving it
// sends the token within a bounded number of its own moves. Over the local
// states a process can reach from state 0 (by any of its actions, the
// token anywhere), holding the token it must always have a move, and the
// moves it can make holding the token without sending it must have no
// cycle. Then every sequence of a holder's moves that does not send ends,
// in a state where its only moves send, and both the runs on which every
// process moves infinitely often and those on which every process receives
// the token infinitely often pass the token round the ring for ever.
func (t *Template) passesTheToken() error {
	reach := t.reachable()
	// keep[s] are the targets of the moves a holder in s makes without
	// sending; canMove[s] says it has a move at all.
	keep := make([][]int, len(t.States))
	canMove := make([]bool, len(t.States))
	for _, a := range t.Actions {
		if a.Token == Free {
			continue
		}
		for _, m := range a.Moves {
			canMove[m.From] = true
			if !a.Sends {
				keep[m.From] = append(keep[m.From], m.To)
			}
		}
	}
	for s, r := range reach {
		if r && !canMove[s] {
			return fmt.Errorf("template %s: a process in local state %s holding the token has no action, so it keeps the token for ever (the theorems' process always passes it on)", t.Name, t.States[s])
		}
	}
	// A depth-first search for a cycle of keeping moves: colour 1 is on
	// the current path, 2 is done.
	colour := make([]int, len(t.States))
	var cycle func(s int) int
	cycle = func(s int) int {
		colour[s] = 1
		for _, to := range keep[s] {
			if colour[to] == 1 {
				return to
			}
			if colour[to] == 0 {
				if c := cycle(to); c >= 0 {
					return c
				}
			}
		}
		colour[s] = 2
		return -1
	}
	for s, r := range reach {
		if r && colour[s] == 0 {
			if c := cycle(s); c >= 0 {
				return fmt.Errorf("template %s: a process holding the token can move for ever without passing it on (a cycle of its actions through local state %s that keep the token; the theorems' process passes it on within finitely many of its moves)", t.Name, t.States[c])
			}
		}
	}
	return nil
}

// reachable is the set of local states a process can reach from state 0
// by its moves, whatever the token's whereabouts.
func (t *Template) reachable() []bool {
	in := make([]bool, len(t.States))
	in[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, a := range t.Actions {
			for _, m := range a.Moves {
				if m.From == s && !in[m.To] {
					in[m.To] = true
					stack = append(stack, m.To)
				}
			}
		}
	}
	return in
}

// docFor is p's Doc for process i.
func (p Prop) docFor(i int) string { return strings.ReplaceAll(p.Doc, "{i}", fmt.Sprintf("p%d", i)) }
