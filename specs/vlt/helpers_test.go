package vlt

import (
	"context"
	"sync"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
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
// worst case and what the claims met. The checker's workers call the
// witness in parallel: each call measures its state on its own (sight) and
// merges the result under mu, so that no maximum or flag is lost.
type observer struct {
	n  int
	mu sync.Mutex
	sight
}

// sight is what the observer records: maxima, and whether each situation
// the claims speak of was met.
type sight struct {
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
	v := look(s, o.n)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.merge(v)
}

// merge adds what another state showed.
func (a *sight) merge(b sight) {
	a.phases, a.messages = max(a.phases, b.phases), max(a.messages, b.messages)
	a.twoCActive, a.shared = a.twoCActive || b.twoCActive, a.shared || b.shared
	a.givesUp, a.bypass = a.givesUp || b.givesUp, a.bypass || b.bypass
}

// look measures one state of a ring of n.
func look(s *State, n int) sight {
	g := &s.Ghost
	v := sight{phases: maxPNUM(s) + 1}
	for p := 0; p < g.Phases(n); p++ {
		v.messages += g.Messages(p, n)
		act, cActive := g.active(p, n), 0
		for u := range act {
			if g.How[p*n+u] == CActive {
				cActive++
			}
			for w := u + 1; p > 0 && w < n; w++ {
				v.shared = v.shared || (act[u] != 0 && act[u] == act[w])
			}
		}
		v.twoCActive = v.twoCActive || cActive >= 2
	}
	for i := range s.Proc {
		// A local minimum that is observant but was not active in phase 1
		// gave up its activation (test0).
		gaveUp := s.Proc[i].Stage == Observant && g.Colour[i] < g.Colour[(i+1)%n] && g.Colour[i] < g.Colour[(i+n-1)%n] &&
			(g.Phases(n) < 2 || g.How[n+i] == NotActive)
		v.givesUp = v.givesUp || gaveUp
	}
	v.bypass = bypass(s)
	return v
}
