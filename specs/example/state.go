package example

import (
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type State,Kind

// State is the global state: per process whether it takes part in the
// election and what it has decided (an invariants.Election, which the
// election properties read), and the messages in transit.
type State struct {
	Participant []bool
	Decided     invariants.Decided
	In          ring.Chans[Msg]
}

// view pictures s for mc trace --format svg and mc explore.
func (sp *spec) view(s *State) model.View {
	return model.View{Procs: invariants.ProcViews(sp.p.IDs, s.Decided), Chans: s.In.Views(sp.net)}
}
