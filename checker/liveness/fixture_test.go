package liveness

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
)

// The unit tests of this package run on explicit graphs: a state is the
// node a run is at, and every arc is an action of a named rule at a
// process, so that a test knows every component, fair or not, and every
// shortest path. (checker's liveness tests use graphs of the same kind
// through a whole run.)

type arc struct {
	from, to int
	rule     string
	proc     int
}

type node struct{ at int }

// graphSystem is the system of arcs, starting at node 0 (or at each of
// init), with the rules named in env marked as environment actions.
func graphSystem(arcs []arc, env []string, init ...int) *model.System[node] {
	if len(init) == 0 {
		init = []int{0}
	}
	var names []string
	procs := 1
	for _, a := range arcs {
		if !slices.Contains(names, a.rule) {
			names = append(names, a.rule)
		}
		procs = max(procs, a.proc+1)
	}
	out := func(at int, r string, p int) []arc {
		var xs []arc
		for _, a := range arcs {
			if a.from == at && a.rule == r && a.proc == p {
				xs = append(xs, a)
			}
		}
		return xs
	}
	sys := &model.System[node]{
		Spec: "graph", Procs: procs, Ends: model.EveryEnd[node],
		Copy:   func(d, s *node) { *d = *s },
		Encode: func(b []byte, s *node) []byte { return model.AppendUint(b, uint64(s.at)) },
		Decode: func(b []byte, s *node) error {
			d := model.NewDecoder(b)
			s.at = d.Int()
			return d.Finish()
		},
		Vars: func(s *node) []model.Var { return []model.Var{{Name: "at", Value: fmt.Sprint(s.at)}} },
	}
	for _, i := range init {
		sys.Init = append(sys.Init, node{i})
	}
	for _, name := range names {
		sys.Rules = append(sys.Rules, model.Rule[node]{
			Name:    name,
			Env:     slices.Contains(env, name),
			Guard:   func(s *node, p int) bool { return len(out(s.at, name, p)) > 0 },
			Choices: func(s *node, p int) int { return len(out(s.at, name, p)) },
			Do:      func(s *node, p, k int) bool { s.at = out(s.at, name, p)[k].to; return true },
			Label:   func(s *node, p, k int) string { return fmt.Sprintf("%s/p%d→%d", name, p, out(s.at, name, p)[k].to) },
		})
	}
	return sys
}

func at(nodes ...int) func(s *node) bool {
	return func(s *node) bool { return slices.Contains(nodes, s.at) }
}

// built is a graph with the node of each of its states.
type built struct {
	*Graph
	sys    *model.System[node]
	nodeOf []int
}

// buildGraph builds sys's graph with props on workers goroutines.
func buildGraph(t *testing.T, sys *model.System[node], workers int, props ...model.Property[node]) built {
	t.Helper()
	b := built{sys: sys}
	ps := make([]*model.Property[node], len(props))
	for i := range props {
		ps[i] = &props[i]
	}
	g, err := Build(sys, ps, Limits{Workers: workers}, noGuard{}, 0, func(id uint32, s *node) {
		if int(id) != len(b.nodeOf) {
			t.Fatalf("state %d visited after %d states", id, len(b.nodeOf))
		}
		b.nodeOf = append(b.nodeOf, s.at)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Free() })
	b.Graph = g
	return b
}

type noGuard struct{}

func (noGuard) Exceeded(int64) string                  { return "" }
func (noGuard) Progress(int64, int64, int, int, int64) {}

// labels renders each list of actions as the rules' labels, replaying
// the lists one after the other from initial state init.
func (b built) labels(init int, actions ...[]model.Action) [][]string {
	var out [][]string
	s := b.sys.Init[init]
	var next node
	for _, as := range actions {
		var ls []string
		for _, a := range as {
			if !b.sys.Apply(&s, a, &next) {
				ls = append(ls, "(not enabled)")
				break
			}
			ls = append(ls, b.sys.Rules[a.Rule].Label(&s, a.Proc, a.Choice))
			s = next
		}
		out = append(out, ls)
	}
	return out
}

func classes(t *testing.T, sys *model.System[node], fair model.Fairness) *Classes {
	t.Helper()
	c, err := NewClasses(sys, fair)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
