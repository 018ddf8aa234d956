package tokentemplate

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// State is the global state of a ring of template processes.
type State struct {
	// Local is each process's local state (an index into States).
	Local []uint8
	// Token is the process holding the token: in its input channel, or
	// kept while it acts.
	Token int
}

// compiled is a template ready to run: per action, the successors of each
// local state, and per atom, its local states as a table.
type compiled struct {
	t    *Template
	ring ring.Ring
	// next[a][s] are the targets of action a's moves from s, in order.
	next [][][]uint8
}

// System builds the ring of p.N template processes, with Params p (which
// the caller has validated for its spec). The rules are the template's
// actions in order, so a trace names them as the template does.
func (t *Template) System(p model.Params) (*model.System[State], error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	n := p.N
	c := &compiled{t: t, ring: ring.Ring{N: n}, next: make([][][]uint8, len(t.Actions))}
	for ai, a := range t.Actions {
		c.next[ai] = make([][]uint8, len(t.States))
		for _, m := range a.Moves {
			c.next[ai][m.From] = append(c.next[ai][m.From], uint8(m.To))
		}
	}
	sys := &model.System[State]{
		Spec: t.Name, Variant: p.Variant, Params: p, Procs: n,
		Init:  []State{{Local: make([]uint8, n)}},
		Chans: ring.Net{Ring: c.ring}.Semantics(), // channel i leads into process i
		Copy: func(d, s *State) {
			d.Local = append(d.Local[:0], s.Local...)
			d.Token = s.Token
		},
		Encode: func(buf []byte, s *State) []byte {
			for _, l := range s.Local {
				buf = model.AppendUint(buf, uint64(l))
			}
			return model.AppendUint(buf, uint64(s.Token))
		},
		Decode: func(data []byte, s *State) error {
			if len(s.Local) != n {
				s.Local = make([]uint8, n)
			}
			d := model.NewDecoder(data)
			for i := range s.Local {
				l := d.Uint()
				if l >= uint64(len(t.States)) {
					return fmt.Errorf("local state %d of p%d out of range", l, i)
				}
				s.Local[i] = uint8(l)
			}
			if s.Token = d.Int(); s.Token >= n {
				return fmt.Errorf("token at p%d in a ring of %d", s.Token, n)
			}
			return d.Finish()
		},
		Vars: func(s *State) []model.Var {
			out := make([]model.Var, 0, n+1)
			for i, l := range s.Local {
				out = append(out, model.Var{Name: fmt.Sprintf("p%d.%s", i, t.Var), Value: t.States[l]})
			}
			return append(out, model.Var{Name: "token", Value: fmt.Sprintf("at p%d", s.Token)})
		},
	}
	for ai := range t.Actions {
		sys.Rules = append(sys.Rules, c.rule(ai))
	}
	for _, pr := range t.Props {
		sys.Props = append(sys.Props, c.props(pr, n)...)
	}
	return sys, nil
}

// rule is action ai as a rule. Its footprint: the process's own local
// state; channel i (the token's presence at i) when the guard reads it,
// also as a send when the action waits for its absence, which the token's
// arrival would change; channel i+1 when it sends.
func (c *compiled) rule(ai int) model.Rule[State] {
	a := c.t.Actions[ai]
	next := c.next[ai]
	tokenOK := func(s *State, i int) bool {
		switch a.Token {
		case Held:
			return s.Token == i
		case Free:
			return s.Token != i
		}
		return true
	}
	var choices func(s *State, i int) int
	for _, to := range next {
		if len(to) > 1 {
			choices = func(s *State, i int) int { return len(next[s.Local[i]]) }
		}
	}
	return model.Rule[State]{
		Name: a.Name, Ref: a.Ref, Env: a.Env,
		Guard:   func(s *State, i int) bool { return len(next[s.Local[i]]) > 0 && tokenOK(s, i) },
		Choices: choices, // nil when no state has two moves, so that a test's mutant guard needs no choices of its own
		Do: func(s *State, i, k int) bool {
			// A local state without moves reaches Do only under a
			// mutant's guard (docs/mutants.md): the process stays.
			if to := next[s.Local[i]]; k < len(to) {
				s.Local[i] = to[k]
			}
			if a.Sends {
				s.Token = c.ring.Succ(i)
			}
			return true
		},
		Label: func(s *State, i, k int) string {
			l := fmt.Sprintf("%s p%d", a.Name, i)
			if to := next[s.Local[i]]; len(to) > 1 {
				l += " to " + c.t.States[to[k]]
			}
			if a.Sends {
				l += fmt.Sprintf(" (sends the token to p%d)", c.ring.Succ(i))
			} else if a.Token == Held {
				l += " (with the token)"
			}
			return l
		},
		Footprint: func(i int) model.Footprint {
			fp := model.Footprint{Proc: i}
			if a.Token != AnyToken {
				fp.Recv = []int{i}
			}
			if a.Token == Free {
				fp.Send = []int{i}
			}
			if a.Sends {
				fp.Send = []int{c.ring.Succ(i)}
			}
			return fp
		},
		Ready: func(s *State, i int) bool { return len(next[s.Local[i]]) > 0 },
	}
}
