//go:build uniring_generic

package uniring

// The reference representation of the state (doc.go), in package ring's
// generic types: what layout.go is compared with and measured against.

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// State is the global state: per process its flag, its decision and its
// input channel, and the ghost count of ⟨elect⟩ messages sent.
type State struct {
	flag      []bool
	decided   []invariants.Decision
	in        ring.Chans[Msg]
	electSent int
}

// New returns the initial state of a ring of n: no flags, undecided, empty
// channels, ghost zero.
func New(n int) State {
	return State{flag: make([]bool, n), decided: make([]invariants.Decision, n), in: make(ring.Chans[Msg], n)}
}

// Procs is the ring size.
func (s *State) Procs() int { return len(s.flag) }

// Flag is process i's participant (Chang–Roberts) or started (LeLann) flag.
func (s *State) Flag(i int) bool { return s.flag[i] }

// SetFlag sets process i's flag.
func (s *State) SetFlag(i int) { s.flag[i] = true }

// Decision is process p's decision.
func (s *State) Decision(p int) invariants.Decision { return s.decided[p] }

// Decide records process p's decision.
func (s *State) Decide(p int, d invariants.Decision) { s.decided[p] = d }

// Decisions hands the election properties every decision at once.
func (s *State) Decisions() []invariants.Decision { return s.decided }

// AppendDecisions appends every process's decision: what the election
// properties read.
func AppendDecisions(buf []byte, s *State) []byte {
	for _, d := range s.decided {
		buf = append(buf, byte(d))
	}
	return buf
}

// AppendGhost appends the ghost count of ⟨elect⟩ messages sent: what the
// message-count claims read.
func AppendGhost(buf []byte, s *State) []byte { return model.AppendUint(buf, uint64(s.electSent)) }

// ElectSent is the ghost count of ⟨elect⟩ messages sent.
func (s *State) ElectSent() int { return s.electSent }

func (s *State) countElect() { s.electSent++ }

// Erase zeroes the ghost variables.
func Erase(s *State) { s.electSent = 0 }

// Pending is the number of messages in process i's input channel.
func (s *State) Pending(i int) int { return s.in[i].Len() }

// Messages lists process i's input channel, oldest (FIFO) or smallest (bag)
// first. The slice must not be modified.
func (s *State) Messages(i int) []Msg { return s.in[i].Messages() }

// EachMessage calls f on every message in transit with the process whose
// input channel holds it, channel by channel, in Messages' order.
func (s *State) EachMessage(f func(i int, m Msg)) {
	for i := range s.in {
		for _, m := range s.in[i].Messages() {
			f(i, m)
		}
	}
}

// unflagged is the number of processes whose flag is not set.
func (s *State) unflagged() int {
	c := 0
	for _, f := range s.flag {
		if !f {
			c++
		}
	}
	return c
}

// sumWeights is Σ over the messages in transit of w.of(i, m), i the
// process whose input channel holds m.
func (s *State) sumWeights(w *weights) int {
	sum := 0
	s.EachMessage(func(i int, m Msg) { sum += w.of(i, m) })
	return sum
}

// Quiet holds when no message is in transit.
func (s *State) Quiet() bool { return s.in.Quiet() }

// send adds m to process j's input channel; false if it is full.
func (s *State) send(j int, m Msg, l model.ChanSemantics) bool { return s.in[j].Send(l, m) }

// choices is how many different receives process i's channel offers.
func (s *State) choices(i int, l model.ChanSemantics) int { return s.in[i].Choices(l) }

// peek returns the message receive choice k would take.
func (s *State) peek(i, k int, l model.ChanSemantics) Msg { return s.in[i].Peek(l, k) }

// recv removes and returns the message of receive choice k.
func (s *State) recv(i, k int, l model.ChanSemantics) Msg { return s.in[i].Recv(l, k) }

// Copy makes dst a copy of src, reusing dst's storage.
func Copy(dst, src *State) {
	dst.flag = append(dst.flag[:0], src.flag...)
	dst.decided = append(dst.decided[:0], src.decided...)
	dst.in.CopyFrom(src.in)
	dst.electSent = src.electSent
}

// Encode appends the state's canonical encoding: per process its flag and
// decision, then the channels, then the ghost.
func Encode(buf []byte, s *State) []byte {
	for i := range s.flag {
		buf = append(model.AppendBool(buf, s.flag[i]), byte(s.decided[i]))
	}
	return model.AppendUint(s.in.AppendTo(buf), uint64(s.electSent))
}

// Decoder returns the inverse of Encode for a ring of n.
func Decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.flag) != n {
			*s = New(n)
		}
		d := model.NewDecoder(data)
		for i := range s.flag {
			s.flag[i], s.decided[i] = d.Bool(), invariants.Decision(d.Int())
		}
		s.in.DecodeFrom(&d, ring.ReadTagged[Kind])
		s.electSent = d.Int()
		return d.Finish()
	}
}

// Vars names the variables for traces; flag is the spec's word for Flag.
// The ghost counter is listed when claims are on.
func Vars(flag string, claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		out := make([]model.Var, 0, 3*len(s.flag)+1)
		for i := range s.flag {
			out = append(out,
				model.Var{Name: fmt.Sprintf("p%d.%s", i, flag), Value: fmt.Sprint(s.Flag(i))},
				model.Var{Name: fmt.Sprintf("p%d.decided", i), Value: s.Decision(i).String()},
				model.Var{Name: fmt.Sprintf("p%d.in", i), Value: s.in[i].String()})
		}
		if claims {
			out = append(out, model.Var{Name: "ghost.elect_sent", Value: fmt.Sprint(s.ElectSent())})
		}
		return out
	}
}
