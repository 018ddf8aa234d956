// Package uniring is the state shared by the id-passing election specs on a
// unidirectional ring (changroberts, lelann): per process one flag and a
// decision, and per process one input channel of ⟨elect j⟩ / ⟨done j⟩
// messages. The specs differ only in their rules.
package uniring

import (
	"fmt"

	"mc/invariants"
	"mc/model"
)

// Kind is a message's type.
type Kind uint8

const (
	// Elect carries a candidate id around the ring.
	Elect Kind = iota
	// Done announces the elected id.
	Done
)

// Msg is ⟨elect j⟩ or ⟨done j⟩.
type Msg struct {
	Kind Kind
	ID   int
}

// Compare orders messages by kind, then id (a bag's canonical order).
func (m Msg) Compare(o Msg) int {
	if m.Kind != o.Kind {
		return int(m.Kind) - int(o.Kind)
	}
	return m.ID - o.ID
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	return model.AppendUint(append(buf, byte(m.Kind)), uint64(m.ID))
}

func (m Msg) String() string {
	if m.Kind == Done {
		return fmt.Sprintf("⟨done %d⟩", m.ID)
	}
	return fmt.Sprintf("⟨elect %d⟩", m.ID)
}

func readMsg(d *model.Decoder) Msg {
	k := Kind(d.Int())
	return Msg{Kind: k, ID: d.Int()}
}

// State is the global state: Flag[i] is "participant" (Chang–Roberts) or
// "started" (LeLann), Decided[i] is i's decision, and In[i] is the channel
// from i's predecessor into i.
type State struct {
	Flag    []bool
	Decided []invariants.Decision
	In      []model.Chan[Msg]
	Ghost   Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go): rules write
// it, nothing reads it but properties.
type Ghost struct {
	// ElectSent counts the ⟨elect⟩ messages sent so far.
	ElectSent int
}

// Erase zeroes the ghost variables.
func Erase(s *State) { s.Ghost = Ghost{} }

// New returns the initial state of a ring of n: no flags, undecided, empty
// channels.
func New(n int) State {
	return State{Flag: make([]bool, n), Decided: make([]invariants.Decision, n), In: make([]model.Chan[Msg], n)}
}

// Procs is the ring size.
func (s *State) Procs() int { return len(s.Decided) }

// Decision is process p's decision.
func (s *State) Decision(p int) invariants.Decision { return s.Decided[p] }

// Quiet holds when no message is in transit.
func (s *State) Quiet() bool {
	for i := range s.In {
		if s.In[i].Len() > 0 {
			return false
		}
	}
	return true
}

// Copy makes dst a copy of src, reusing dst's storage.
func Copy(dst, src *State) {
	dst.Flag = append(dst.Flag[:0], src.Flag...)
	dst.Decided = append(dst.Decided[:0], src.Decided...)
	if len(dst.In) != len(src.In) {
		dst.In = make([]model.Chan[Msg], len(src.In))
	}
	for i := range src.In {
		dst.In[i].CopyFrom(&src.In[i])
	}
	dst.Ghost = src.Ghost
}

// Encode writes, per process, one byte (flag | decision<<1) and its input
// channel, then the ghost counter.
func Encode(buf []byte, s *State) []byte {
	for i := range s.Decided {
		b := byte(s.Decided[i]) << 1
		if s.Flag[i] {
			b |= 1
		}
		buf = append(buf, b)
		buf = s.In[i].AppendTo(buf)
	}
	return model.AppendUint(buf, uint64(s.Ghost.ElectSent))
}

// Decoder returns the inverse of Encode for a ring of n.
func Decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.Decided) != n {
			*s = New(n)
		}
		d := model.NewDecoder(data)
		for i := 0; i < n; i++ {
			b := d.Int()
			s.Flag[i], s.Decided[i] = b&1 == 1, invariants.Decision(b>>1)
			s.In[i].DecodeFrom(&d, readMsg)
		}
		s.Ghost.ElectSent = d.Int()
		return d.Finish()
	}
}

// Vars names the variables for traces; flag is the spec's word for Flag.
// The ghost counter is listed when claims are on.
func Vars(flag string, claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		out := make([]model.Var, 0, 3*len(s.Decided)+1)
		for i := range s.Decided {
			out = append(out,
				model.Var{Name: fmt.Sprintf("p%d.%s", i, flag), Value: fmt.Sprint(s.Flag[i])},
				model.Var{Name: fmt.Sprintf("p%d.decided", i), Value: s.Decided[i].String()},
				model.Var{Name: fmt.Sprintf("p%d.in", i), Value: s.In[i].String()})
		}
		if claims {
			out = append(out, model.Var{Name: "ghost.elect_sent", Value: fmt.Sprint(s.Ghost.ElectSent)})
		}
		return out
	}
}

// Properties are the election properties both specs check; winner is the
// process with the maximum id and ref the seed section of the spec. With
// claims, the message-count claims join them.
func Properties(p *model.Params, ref string) []model.Property[State] {
	winner := ArgMax(p.IDs)
	props := []model.Property[State]{
		model.InvariantProp("at-most-one-leader", ref, "no two processes are leaders at once",
			func(s *State) bool { return invariants.AtMostOneLeader(s) }),
		model.InvariantProp("leader-is-max", ref, fmt.Sprintf("only the maximum-id process p%d is ever leader", winner),
			func(s *State) bool { return invariants.LeaderIs(s, winner) }),
		model.StepProp("decision-stable", "004 (leader never changes)", "a decided process never changes its decision",
			func(b *State, _ model.Action, a *State) bool { return invariants.DecisionStable(b, a) }),
		model.EndProp("election-complete", ref, "every terminal state has exactly one leader, all others lost, and no message in transit",
			func(s *State) bool { return invariants.Agreement(s) && s.Quiet() }),
		model.WitnessProp("leader-elected", ref, "some reachable state has a leader",
			func(s *State) bool { return invariants.SomeLeader(s) }),
		model.EventuallyProp("eventually-leader", ref, "every fair run elects a leader",
			func(s *State) bool { return invariants.SomeLeader(s) }),
		// With election-complete (every terminal state is good) this is
		// termination: the goal state enables no action (a decided
		// process does not start, and no message is left to receive), so
		// no fair run is infinite.
		model.EventuallyProp("election-terminates", ref, "every fair run ends with one leader, all others lost and no message in transit",
			func(s *State) bool { return invariants.Agreement(s) && s.Quiet() }),
	}
	if !p.Claims {
		return props
	}
	worst := p.N * (p.N + 1) / 2
	props = append(props, model.InvariantProp("elect-messages-bound", "002 §5.2; 004 (each processor induces at most n messages)",
		fmt.Sprintf("at most n(n+1)/2 = %d ⟨elect⟩ messages are sent in any run", worst),
		func(s *State) bool { return s.Ghost.ElectSent <= worst }))
	if CyclicallyDescending(p.IDs) {
		props = append(props, model.WitnessProp("elect-messages-worst-case", "002 §5.2 (ids in decreasing order, all initiating)",
			fmt.Sprintf("some run sends exactly n(n+1)/2 = %d ⟨elect⟩ messages", worst),
			func(s *State) bool { return s.Ghost.ElectSent == worst }))
	}
	return props
}

// CyclicallyDescending reports whether the ids decrease along the ring from
// the maximum: each process's successor has the next smaller id. This is
// the arrangement in which the worst case n(n+1)/2 is claimed.
func CyclicallyDescending(ids []int) bool {
	top, drops := ArgMax(ids), 0
	for i := range ids {
		if ids[(top+i+1)%len(ids)] > ids[(top+i)%len(ids)] {
			drops++
		}
	}
	return drops == 1
}

// ArgMax is the process with the largest id.
func ArgMax(ids []int) int {
	best := 0
	for i, id := range ids {
		if id > ids[best] {
			best = i
		}
	}
	return best
}
