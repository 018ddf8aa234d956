package checker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
)

// Graph is the reachable state graph of a Target, every transition kept
// (liveness.Graph, whose methods it has), for analyses of whole runs that
// know no state type, such as sweep's costs: what they need of each state
// they observe while the graph is built (GraphOptions.Visit), and Run
// renders a path of the graph as a trace.
type Graph struct {
	*liveness.Graph
	render func(init int, actions []model.Action, end uint64) (*Trace, error)
}

// GraphOptions bound a graph's build, as they bound a check, and say what
// is observed of each state.
type GraphOptions struct {
	MaxStates int64
	Timeout   time.Duration
	// Measures names the measures whose values Visit receives, in this
	// order; a name the system does not have is an error.
	Measures []string
	// InTransit asks Visit for each state's messages in transit
	// (Observation.InTransit).
	InTransit bool
	// Visit, if not nil, is called on every state as it is stored, in the
	// order of their numbers; the Observation is valid during the call.
	Visit func(id uint32, o Observation)
	// Reduce builds the reduced graph instead, each state expanded by an
	// ample set chosen as mc check --por chooses it, no variable visible
	// (liveness.Limits.Reduce says what it keeps); an error says why a
	// system cannot be reduced (a rule without a footprint).
	Reduce bool
}

// Observation is what a graph's build observed of one state.
type Observation struct {
	Measures []int
	// InTransit visits the messages in transit in the state as
	// model.System.InTransit does; it is nil unless GraphOptions.InTransit
	// asked for it and the system lists its messages, by InTransit or, more
	// slowly, by its View's Chans.
	InTransit func(visit func(ch int, kind string, msg []byte))
}

func (t target[S]) Graph(ctx context.Context, opt GraphOptions) (*Graph, error) {
	sys := t.sys
	visit, err := observer(sys, opt)
	if err != nil {
		return nil, err
	}
	lim := liveness.Limits{MaxStates: opt.MaxStates}
	if opt.Reduce {
		// The graph decides no property, so none is visible: the reducer
		// is built as if the system had none.
		bare := *sys
		bare.Props = nil
		r, note, err := por.New(&bare)
		if err != nil {
			return nil, err
		}
		if r == nil { // a rule without a footprint, as note says
			return nil, fmt.Errorf("--por: spec %s cannot be reduced: %s", sys.Spec, strings.TrimSuffix(note, ": every interleaving explored"))
		}
		lim.Reduce = r
	}
	limits := Options{MaxStates: opt.MaxStates, Timeout: opt.Timeout}
	g, err := liveness.Build(sys, nil, lim, newPhaseGuard(ctx, "graph", limits, time.Now(), 0), 0, visit)
	if err != nil {
		return nil, err
	}
	return &Graph{Graph: g, render: func(init int, actions []model.Action, end uint64) (*Trace, error) {
		return render(sys, init, actions, end)
	}}, nil
}

// observer is the function that observes a state as opt asks (nil when it
// asks nothing), or an error for a measure sys does not have.
func observer[S any](sys *model.System[S], opt GraphOptions) (func(uint32, *S), error) {
	measures := make([]func(*S) int, len(opt.Measures))
	for i, name := range opt.Measures {
		m := measureNamed(sys, name)
		if m == nil {
			return nil, fmt.Errorf("spec %s has no measure %q (is it built with claims?)", sys.Spec, name)
		}
		measures[i] = m.Value
	}
	if opt.Visit == nil {
		return nil, nil
	}
	o := Observation{Measures: make([]int, len(measures))}
	var cur *S
	switch {
	case !opt.InTransit:
	case sys.InTransit != nil:
		o.InTransit = func(visit func(int, string, []byte)) { sys.InTransit(cur, visit) }
	case sys.View != nil:
		o.InTransit = func(visit func(int, string, []byte)) { viewInTransit(sys.View(cur), visit) }
	}
	return func(id uint32, s *S) {
		cur = s
		for i, f := range measures {
			o.Measures[i] = f(s)
		}
		opt.Visit(id, o)
	}, nil
}

// ObservePath observes, as Graph observes the states of the graph, the
// states of one run: initial state init (an index of the system's initial
// states), then the state after each of actions, numbered from 0 in that
// order. It fails if an action is not enabled where the run takes it. What
// a graph's analysis computes of a run it found, it computes so of a run
// given to it (sweep's cost of a witness run read back from its file).
func (t target[S]) ObservePath(init int, actions []model.Action, opt GraphOptions) error {
	sys := t.sys
	if init < 0 || init >= len(sys.Init) {
		return fmt.Errorf("the run starts from initial state %d, and the spec has %d", init, len(sys.Init))
	}
	visit, err := observer(sys, opt)
	if err != nil || visit == nil {
		return err
	}
	var s, next S
	sys.Copy(&s, &sys.Init[init])
	visit(0, &s)
	for i, a := range actions {
		if !sys.Apply(&s, a, &next) {
			return fmt.Errorf("step %d (%s) is not enabled", i+1, t.describe(&s, a))
		}
		s, next = next, s
		visit(uint32(i+1), &s)
	}
	return nil
}

// viewInTransit visits the messages of v's channels as
// model.System.InTransit would, each told apart by its rendering.
func viewInTransit(v model.View, visit func(ch int, kind string, msg []byte)) {
	for ch, c := range v.Chans {
		for i, m := range c.Msgs {
			kind := ""
			if i < len(c.Kinds) {
				kind = c.Kinds[i]
			}
			visit(ch, kind, []byte(m))
		}
	}
}

// measureNamed is the measure of sys called name, or nil.
func measureNamed[S any](sys *model.System[S], name string) *model.Measure[S] {
	for i := range sys.Measures {
		if sys.Measures[i].Name == name {
			return &sys.Measures[i]
		}
	}
	return nil
}

// Run renders the run from initial state init (an index of the system's
// initial states) along edges, checking that its replay ends in the state
// the graph says it does.
func (g *Graph) Run(init int, edges []int) (*Trace, error) {
	actions := make([]model.Action, len(edges))
	for i, e := range edges {
		actions[i] = g.Action(e)
	}
	end := g.Init()[init]
	if len(edges) > 0 {
		end = g.To(edges[len(edges)-1])
	}
	return g.render(init, actions, g.FP(end))
}
