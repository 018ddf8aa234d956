package example

import (
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type State,Kind

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

// view pictures s for mc trace --format svg and mc explore.
func (sp *spec) view(s *State) model.View {
	return model.View{Procs: invariants.ProcViews(sp.p.IDs, s), Chans: s.In.Views(sp.net)}
}
