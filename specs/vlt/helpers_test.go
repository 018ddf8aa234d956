package vlt

import (
	"context"
	"testing"

	"mc/checker"
	"mc/model"
)

// run explores the system for p with fault f switched on, checking every
// property to the end.
func run(t *testing.T, p model.Params, f fault, extra ...model.Property[State]) checker.Result {
	t.Helper()
	sys, err := build(p, f)
	if err != nil {
		t.Fatal(err)
	}
	sys.Props = append(sys.Props, extra...)
	r := checker.Run(context.Background(), sys, checker.Options{Continue: true})
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r
}

func prop(t *testing.T, r *checker.Result, name string) checker.PropResult {
	t.Helper()
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %s", name)
	return checker.PropResult{}
}

// failures lists the properties that did not pass.
func failures(r *checker.Result) []string {
	var out []string
	for _, p := range r.Props {
		if p.Verdict != checker.Pass {
			out = append(out, p.Name)
		}
	}
	return out
}

// replay returns the states a trace passes through, the initial one first.
func replay(t *testing.T, p model.Params, f fault, tr *checker.Trace) []State {
	t.Helper()
	sys, err := build(p, f)
	if err != nil {
		t.Fatal(err)
	}
	var out []State
	var actions []model.Action
	for i := 0; i <= len(tr.Steps); i++ {
		s, err := checker.Replay(sys, tr.Init, actions)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
		if i < len(tr.Steps) {
			actions = append(actions, tr.Steps[i].Action)
		}
	}
	return out
}

// observer looks at every reachable state once (a witness that never
// holds, so the checker evaluates it on every new state) and records the
// worst case and what the claims met.
type observer struct {
	n                  int
	phases, messages   int
	twoCActive, shared bool
	givesUp, bypass    bool
}

func (o *observer) prop() model.Property[State] {
	return model.WitnessProp("observe", "test", "", func(s *State) bool {
		o.see(s)
		return false
	})
}

func (o *observer) see(s *State) {
	n, g := o.n, &s.Ghost
	o.phases = max(o.phases, maxPNUM(s)+1)
	total := 0
	for p := 0; p < g.Phases(n); p++ {
		total += g.Messages(p, n)
		act, cActive := g.active(p, n), 0
		for u := range act {
			if g.How[p*n+u] == CActive {
				cActive++
			}
			for v := u + 1; p > 0 && v < n; v++ {
				o.shared = o.shared || (act[u] != 0 && act[u] == act[v])
			}
		}
		o.twoCActive = o.twoCActive || cActive >= 2
	}
	o.messages = max(o.messages, total)
	for i := range s.Proc {
		// A local minimum that is observant but was not active in phase 1
		// gave up its activation (test0).
		gaveUp := s.Proc[i].Stage == Observant && g.Colour[i] < g.Colour[(i+1)%n] && g.Colour[i] < g.Colour[(i+n-1)%n] &&
			(g.Phases(n) < 2 || g.How[n+i] == NotActive)
		o.givesUp = o.givesUp || gaveUp
	}
	o.bypass = o.bypass || bypass(s)
}
