package vitanyi

import (
	"fmt"
	"strings"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Phase is where a processor is in the election (seed 001 §2: "Each
// processor can be asleep or awake"; the Elected One and the others go back
// to sleep differently, so asleep-after-the-election is split three ways).
type Phase uint8

const (
	// Asleep: has not woken up yet.
	Asleep Phase = iota
	// Awake: runs the Protocol.
	Awake
	// Announced: the Elected One, which got its own M back, sent the
	// sleepwell and went asleep; it still reads its input, waiting for the
	// sleepwell to come back.
	Announced
	// Finished: the Elected One after its sleepwell came back: "the
	// election is finished".
	Finished
	// Slept: a processor that received the sleepwell while awake, forwarded
	// it and went asleep.
	Slept
)

var phaseNames = [...]string{"asleep", "awake", "announced", "finished", "slept"}

func (p Phase) String() string { return phaseNames[p] }

// State is the global state. Per processor: its phase, k (the lowest id
// seen), its timer and its input channel from the anticlockwise neighbour;
// with bounded drift also the drift bookkeeping. The Elected One is not
// stored: a processor sets it to k when it goes asleep and k never changes
// afterwards (ElectedOne).
type State struct {
	Phase []Phase
	K     []int
	// Timer[i] is the number of local time units before i passes on the
	// message it holds, M_K[i]; 0 once it has passed it on. The Protocol
	// decrements it below zero, but a timer below zero only ever decreases
	// until it is reset, and never reaches 0 again, so all such values are
	// one: 0 (see countDown).
	Timer []int
	In    ring.Chans[Msg]
	// Passed[i] counts i's ticks that passed over the message at the head of
	// In[i] (rule 2 of the package doc); always 0 when the drift is unbounded.
	Passed []int
	// Ahead[i*n+j] counts the ticks i completed since j last ticked, for
	// processors i, j that both run (rule 1); nil when the drift is
	// unbounded.
	Ahead []uint8
	Ghost Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go): rules write
// it, only properties and measures read it.
type Ghost struct {
	// Messages counts the messages sent so far, of every kind.
	Messages int
	// Bits counts their bits (see msgBits).
	Bits int
}

// Erase zeroes the ghost variables.
func Erase(s *State) { s.Ghost = Ghost{} }

// newState is the initial state of a ring of n: everyone asleep, links
// empty.
func newState(n int, drift bool) State {
	s := State{Phase: make([]Phase, n), K: make([]int, n), Timer: make([]int, n), In: make(ring.Chans[Msg], n), Passed: make([]int, n)}
	if drift {
		s.Ahead = make([]uint8, n*n)
	}
	return s
}

// Procs is the ring size.
func (s *State) Procs() int { return len(s.Phase) }

// Decision is p's decision: the Elected One is leader from the moment it
// gets its own M back; the others have lost once they received the
// sleepwell.
func (s *State) Decision(p int) invariants.Decision {
	switch s.Phase[p] {
	case Announced, Finished:
		return invariants.Leader
	case Slept:
		return invariants.Lost
	}
	return invariants.Undecided
}

// ElectedOne is p's variable "Elected One": k, set when p goes asleep after
// the election; 0 before.
func (s *State) ElectedOne(p int) int {
	if s.Phase[p] >= Announced {
		return s.K[p]
	}
	return 0
}

// Quiet holds when no message is in transit.
func (s *State) Quiet() bool { return s.In.Quiet() }

// copyState makes dst a copy of src, reusing dst's storage.
func copyState(dst, src *State) {
	dst.Phase = append(dst.Phase[:0], src.Phase...)
	dst.K = append(dst.K[:0], src.K...)
	dst.Timer = append(dst.Timer[:0], src.Timer...)
	dst.Passed = append(dst.Passed[:0], src.Passed...)
	dst.In.CopyFrom(src.In)
	if src.Ahead == nil {
		dst.Ahead = nil
	} else {
		dst.Ahead = append(dst.Ahead[:0], src.Ahead...)
	}
	dst.Ghost = src.Ghost
}

// encode writes per processor its phase, k, timer, input channel and
// Passed, then the drift counters and the ghosts.
func encode(buf []byte, s *State) []byte {
	for i := range s.Phase {
		buf = append(buf, byte(s.Phase[i]))
		buf = model.AppendUint(buf, uint64(s.K[i]))
		buf = model.AppendUint(buf, uint64(s.Timer[i]))
		buf = s.In[i].AppendTo(buf)
		buf = model.AppendUint(buf, uint64(s.Passed[i]))
	}
	buf = append(buf, s.Ahead...)
	buf = model.AppendUint(buf, uint64(s.Ghost.Messages))
	return model.AppendUint(buf, uint64(s.Ghost.Bits))
}

// decoder returns the inverse of encode for a ring of n.
func decoder(n int, drift bool) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.Phase) != n || (s.Ahead != nil) != drift {
			*s = newState(n, drift)
		}
		d := model.NewDecoder(data)
		for i := 0; i < n; i++ {
			s.Phase[i] = Phase(d.Int())
			s.K[i] = d.Int()
			s.Timer[i] = d.Int()
			s.In[i].DecodeFrom(&d, ring.ReadTagged[Kind])
			s.Passed[i] = d.Int()
		}
		for i := range s.Ahead {
			s.Ahead[i] = uint8(d.Int())
		}
		s.Ghost.Messages = d.Int()
		s.Ghost.Bits = d.Int()
		return d.Finish()
	}
}

// vars names the variables for traces. Passed and the drift counters are
// listed when the drift is bounded, the ghosts when claims are on.
func vars(drift, claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		n := len(s.Phase)
		out := make([]model.Var, 0, 6*n+2)
		for i := 0; i < n; i++ {
			out = append(out,
				model.Var{Name: fmt.Sprintf("p%d.phase", i), Value: s.Phase[i].String()},
				model.Var{Name: fmt.Sprintf("p%d.k", i), Value: fmt.Sprint(s.K[i])},
				model.Var{Name: fmt.Sprintf("p%d.timer", i), Value: fmt.Sprint(s.Timer[i])},
				model.Var{Name: fmt.Sprintf("p%d.in", i), Value: s.In[i].String()})
			if drift {
				out = append(out,
					model.Var{Name: fmt.Sprintf("p%d.passed", i), Value: fmt.Sprint(s.Passed[i])},
					model.Var{Name: fmt.Sprintf("p%d.ahead", i), Value: aheadString(s, i)})
			}
		}
		if claims {
			out = append(out,
				model.Var{Name: "ghost.messages", Value: fmt.Sprint(s.Ghost.Messages)},
				model.Var{Name: "ghost.bits", Value: fmt.Sprint(s.Ghost.Bits)})
		}
		return out
	}
}

// aheadString renders i's drift counters as "p1:2 p3:1": i completed 2
// ticks since p1 last ticked and 1 since p3 did; "-" when none.
func aheadString(s *State, i int) string {
	n := len(s.Phase)
	var parts []string
	for j := 0; j < n; j++ {
		if c := s.Ahead[i*n+j]; c > 0 {
			parts = append(parts, fmt.Sprintf("p%d:%d", j, c))
		}
	}
	if parts == nil {
		return "-"
	}
	return strings.Join(parts, " ")
}
