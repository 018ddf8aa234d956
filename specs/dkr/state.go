package dkr

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Kind is a message's type: the seed's b in (b, number), or the
// announcement this spec adds.
type Kind uint8

const (
	// First is (1, number): number is the max of the first active process
	// on the sender's right.
	First Kind = 1
	// Second is (2, number): the max of the second active process on the
	// right.
	Second Kind = 2
	// Announce is ⟨leader number⟩: the election is over and number, the
	// greatest id, won.
	Announce Kind = 3
)

// Msg is (1, number), (2, number) or ⟨leader number⟩.
type Msg struct {
	Kind   Kind
	Number int
}

// Compare orders messages by kind, then number.
func (m Msg) Compare(o Msg) int {
	if m.Kind != o.Kind {
		return int(m.Kind) - int(o.Kind)
	}
	return m.Number - o.Number
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	return model.AppendUint(append(buf, byte(m.Kind)), uint64(m.Number))
}

func (m Msg) String() string {
	if m.Kind == Announce {
		return fmt.Sprintf("⟨leader %d⟩", m.Number)
	}
	return fmt.Sprintf("⟨%d, %d⟩", m.Kind, m.Number)
}

// KindName is the seed's name of the message's type, (1, ·) or (2, ·), or
// leader for the announcement (model.Kinded).
func (m Msg) KindName() string {
	if m.Kind == Announce {
		return "leader"
	}
	return fmt.Sprint(int(m.Kind))
}

func readMsg(d *model.Decoder) Msg {
	k := Kind(d.Int())
	return Msg{Kind: k, Number: d.Int()}
}

// Mode is a process's state in the seed's sense, plus the time before it
// joins.
type Mode uint8

const (
	// Asleep: the process has not yet initiated the election (the seed's
	// "initialized passive", before initiate_election).
	Asleep Mode = iota
	// Active: the process takes part in the current stage.
	Active
	// Passive: the process only relays.
	Passive
)

func (m Mode) String() string {
	switch m {
	case Active:
		return "active"
	case Passive:
		return "passive"
	}
	return "asleep"
}

// State is the global state: per process its mode, max and neighbourR (the
// seed's variables), what it knows of the outcome, and its input channel.
type State struct {
	Mode       []Mode
	Max        []int
	NeighbourR []int
	Out        invariants.Outcome
	In         ring.Chans[Msg]
	Ghost      Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go). Every
// counter saturates (see spec.go), so that a broken mutant that never
// stops cannot make the ghosted state space infinite.
type Ghost struct {
	// Sent counts the (1, ·) and (2, ·) messages sent, relays included.
	Sent int
	// Announced counts the ⟨leader⟩ messages sent.
	Announced int
	// Stage[i] is the stage process i is active in: how many (1, ·)
	// messages it has originated.
	Stage []int
	// Entered[k] is how many processes have been active in stage k ≥ 1.
	Entered []int
}

// Erase zeroes the ghost variables.
func Erase(s *State) { s.Ghost = Ghost{} }

func newState(n int, claims bool, stages int) State {
	s := State{Mode: make([]Mode, n), Max: make([]int, n), NeighbourR: make([]int, n),
		Out: invariants.New(n), In: make(ring.Chans[Msg], n)}
	if claims {
		s.Ghost.Stage, s.Ghost.Entered = make([]int, n), make([]int, stages)
	}
	return s
}

// Procs is the ring size.
func (s *State) Procs() int { return len(s.Mode) }

func copyState(dst, src *State) {
	if len(dst.In) != len(src.In) {
		dst.In = make(ring.Chans[Msg], len(src.In))
	}
	dst.Mode = append(dst.Mode[:0], src.Mode...)
	dst.Max = append(dst.Max[:0], src.Max...)
	dst.NeighbourR = append(dst.NeighbourR[:0], src.NeighbourR...)
	dst.Out.CopyFrom(&src.Out)
	dst.In.CopyFrom(src.In)
	dst.Ghost.Sent, dst.Ghost.Announced = src.Ghost.Sent, src.Ghost.Announced
	dst.Ghost.Stage = model.CloneInts(dst.Ghost.Stage, src.Ghost.Stage)
	dst.Ghost.Entered = model.CloneInts(dst.Ghost.Entered, src.Ghost.Entered)
}

func encode(buf []byte, s *State) []byte {
	for i := range s.Mode {
		buf = append(buf, byte(s.Mode[i]))
		buf = model.AppendUint(buf, uint64(s.Max[i]))
		buf = model.AppendUint(buf, uint64(s.NeighbourR[i]))
		buf = s.Out.AppendTo(buf, i)
	}
	return appendGhost(s.In.AppendTo(buf), s)
}

// appendGhost writes the ghost variables: what the claims read.
func appendGhost(buf []byte, s *State) []byte {
	buf = model.AppendUint(buf, uint64(s.Ghost.Sent))
	buf = model.AppendUint(buf, uint64(s.Ghost.Announced))
	buf = model.AppendInts(buf, s.Ghost.Stage)
	return model.AppendInts(buf, s.Ghost.Entered)
}

func decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.Mode) != n {
			*s = newState(n, false, 0)
		}
		d := model.NewDecoder(data)
		for i := range n {
			s.Mode[i] = Mode(d.Int())
			s.Max[i] = d.Int()
			s.NeighbourR[i] = d.Int()
			s.Out.DecodeFrom(&d, i)
		}
		s.In.DecodeFrom(&d, readMsg)
		s.Ghost.Sent = d.Int()
		s.Ghost.Announced = d.Int()
		s.Ghost.Stage = d.Ints(s.Ghost.Stage)
		s.Ghost.Entered = d.Ints(s.Ghost.Entered)
		return d.Finish()
	}
}

func vars(net ring.Net, s *State) []model.Var {
	out := make([]model.Var, 0, 6*len(s.Mode)+4)
	for i := range s.Mode {
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d.state", i), Value: s.Mode[i].String()},
			model.Var{Name: fmt.Sprintf("p%d.max", i), Value: fmt.Sprint(s.Max[i])},
			model.Var{Name: fmt.Sprintf("p%d.neighbourR", i), Value: fmt.Sprint(s.NeighbourR[i])})
		out = append(out, s.Out.Vars(i)...)
		out = s.In.Vars(net, out, i)
	}
	if s.Ghost.Stage != nil {
		out = append(out,
			model.Var{Name: "ghost.sent", Value: fmt.Sprint(s.Ghost.Sent)},
			model.Var{Name: "ghost.announced", Value: fmt.Sprint(s.Ghost.Announced)},
			model.Var{Name: "ghost.stage", Value: fmt.Sprint(s.Ghost.Stage)},
			model.Var{Name: "ghost.entered", Value: fmt.Sprint(s.Ghost.Entered[1:])})
	}
	return out
}
