package example

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// State is the global state: per process whether it takes part in the
// election and what it has decided, and the messages in transit.
type State struct {
	Participant []bool
	Decided     []invariants.Decision
	In          ring.Chans[Msg]
}

func newState(net ring.Net) State {
	n := net.Ring.N
	return State{Participant: make([]bool, n), Decided: make([]invariants.Decision, n), In: ring.NewChans[Msg](net)}
}

// Procs and Decision make a State an invariants.Election, the view the
// election properties read.
func (s *State) Procs() int { return len(s.Decided) }

// Decision is process p's decision.
func (s *State) Decision(p int) invariants.Decision { return s.Decided[p] }

// copyState makes dst a copy of src, reusing dst's storage.
func copyState(dst, src *State) {
	dst.Participant = append(dst.Participant[:0], src.Participant...)
	dst.Decided = append(dst.Decided[:0], src.Decided...)
	dst.In.CopyFrom(src.In)
}

// encode appends the canonical encoding of s: each process's variables,
// then every channel.
func encode(buf []byte, s *State) []byte {
	for i := range s.Decided {
		buf = model.AppendBool(buf, s.Participant[i])
		buf = model.AppendUint(buf, uint64(s.Decided[i]))
	}
	return s.In.AppendTo(buf)
}

// decode reads what encode wrote into s, overwriting it.
func (sp *spec) decode(data []byte, s *State) error {
	if len(s.Decided) != sp.net.Ring.N {
		*s = newState(sp.net)
	}
	d := model.NewDecoder(data)
	for i := range s.Decided {
		s.Participant[i] = d.Bool()
		s.Decided[i] = invariants.Decision(d.Int())
	}
	s.In.DecodeFrom(&d, ring.ReadTagged[Kind])
	return d.Finish()
}

// vars names every variable of s for traces: "p2.participant",
// "p2.decided", "p2.in".
func (sp *spec) vars(s *State) []model.Var {
	var out []model.Var
	for i := range s.Decided {
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d.participant", i), Value: fmt.Sprint(s.Participant[i])},
			model.Var{Name: fmt.Sprintf("p%d.decided", i), Value: s.Decided[i].String()})
		out = s.In.Vars(sp.net, out, i)
	}
	return out
}

// view pictures s for mc trace --format svg and mc explore.
func (sp *spec) view(s *State) model.View {
	return model.View{Procs: invariants.ProcViews(sp.p.IDs, s), Chans: s.In.Views(sp.net)}
}
