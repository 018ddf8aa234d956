package franklin

import (
	"fmt"

	"mc/model"
	"mc/specs/internal/biring"
	"mc/specs/internal/outcome"
)

// Kind is a message's type.
type Kind uint8

const (
	// ID carries an active process's id to its nearest active neighbour.
	ID Kind = iota
	// Leader is the announcement: it carries the winner's id once round the
	// ring.
	Leader
)

// Msg is ⟨id v⟩ or ⟨leader v⟩.
type Msg struct {
	Kind Kind
	V    int
}

// Compare orders messages by kind, then id.
func (m Msg) Compare(o Msg) int {
	if m.Kind != o.Kind {
		return int(m.Kind) - int(o.Kind)
	}
	return m.V - o.V
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	return model.AppendUint(append(buf, byte(m.Kind)), uint64(m.V))
}

func (m Msg) String() string {
	if m.Kind == Leader {
		return fmt.Sprintf("⟨leader %d⟩", m.V)
	}
	return fmt.Sprintf("⟨id %d⟩", m.V)
}

func readMsg(d *model.Decoder) Msg {
	k := Kind(d.Int())
	return Msg{Kind: k, V: d.Int()}
}

// Status is a process's role.
type Status uint8

const (
	// Asleep: it has not started yet.
	Asleep Status = iota
	// Active: it competes in the current stage.
	Active
	// Passive: it lost a stage and relays.
	Passive
	// Won: it received its own id from both sides and announced itself.
	Won
)

func (st Status) String() string {
	return [...]string{"asleep", "active", "passive", "elected"}[st]
}

// Proc is one process's variables.
type Proc struct {
	Status Status
	// Heard[port] is the id received through port in the current stage,
	// 0 while none has arrived; only an active process uses it.
	Heard [2]int
}

// State is the global state: the processes' variables, what each knows of
// the outcome, the channels and the ghost.
type State struct {
	P     []Proc
	Out   outcome.Outcome
	Links biring.Links[Msg]
	Ghost biring.Ghost
}

func newState(n int) State {
	return State{P: make([]Proc, n), Out: outcome.New(n), Links: biring.NewLinks[Msg](n), Ghost: biring.NewGhost(n)}
}

func copyState(dst, src *State) {
	dst.P = append(dst.P[:0], src.P...)
	dst.Out.CopyFrom(&src.Out)
	dst.Links.CopyFrom(&src.Links)
	dst.Ghost.CopyFrom(&src.Ghost)
}

func encode(buf []byte, s *State) []byte {
	for i, p := range s.P {
		buf = append(buf, byte(p.Status))
		buf = model.AppendUint(buf, uint64(p.Heard[model.Left]))
		buf = model.AppendUint(buf, uint64(p.Heard[model.Right]))
		buf = s.Out.AppendTo(buf, i)
	}
	buf = s.Links.AppendTo(buf)
	return s.Ghost.AppendTo(buf)
}

func decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.P) != n {
			*s = newState(n)
		}
		d := model.NewDecoder(data)
		for i := range s.P {
			p := &s.P[i]
			p.Status = Status(d.Int())
			p.Heard[model.Left], p.Heard[model.Right] = d.Int(), d.Int()
			s.Out.DecodeFrom(&d, i)
		}
		s.Links.DecodeFrom(&d, readMsg)
		s.Ghost.DecodeFrom(&d)
		return d.Finish()
	}
}

func heard(v int) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

func vars(claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		out := make([]model.Var, 0, 5*len(s.P)+len(s.P)+1)
		for i, p := range s.P {
			out = append(out,
				model.Var{Name: fmt.Sprintf("p%d.status", i), Value: p.Status.String()},
				model.Var{Name: fmt.Sprintf("p%d.heard", i), Value: fmt.Sprintf("left %s right %s", heard(p.Heard[model.Left]), heard(p.Heard[model.Right]))})
			out = append(out, s.Out.Vars(i)...)
			out = s.Links.Vars(out, i)
		}
		if claims {
			out = s.Ghost.Vars(out, "stages")
		}
		return out
	}
}
