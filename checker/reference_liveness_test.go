package checker_test

import (
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// The reference's liveness check decides "P leads to Q" and "eventually Q"
// from the definitions, by brute force, independently of liveness.go (which
// runs Tarjan's algorithm over a fingerprint-indexed graph and searches for
// a lasso). A run is a maximal path from an initial state: infinite, or
// ending in a terminal state. A ¬Q state can stay away from Q forever when,
// within the ¬Q states, it reaches a terminal state or a fair cycle. Here
// cycles are found as mutual reachability: from every ¬Q state a
// breadth-first search over ¬Q states gives the set it reaches in one step
// or more; s lies on a cycle when it reaches itself, and its component is
// every t that s reaches and that reaches s. The component is fair when
// every fairness class enabled in all of its states is taken by one of its
// internal edges (weak fairness; see liveness.Classes).
// Quadratic in the number of ¬Q states, so graphs above refLivenessMax
// states are left unchecked.

// refLivenessMax bounds the graphs whose liveness the reference decides.
const refLivenessMax = 4000

// refGraph is the reachable graph as the reference explored it.
type refGraph struct {
	id    map[checker.State]int
	succ  [][]refEdge
	goals [][]checker.GoalStatus
	init  []int
}

type refEdge struct {
	to     int
	action model.Action
}

func newRefGraph() *refGraph { return &refGraph{id: map[checker.State]int{}} }

// index numbers s on first sight.
func (g *refGraph) index(s checker.State) int {
	if i, ok := g.id[s]; ok {
		return i
	}
	g.id[s] = len(g.succ)
	g.succ = append(g.succ, nil)
	g.goals = append(g.goals, nil)
	return len(g.succ) - 1
}

// liveness decides every liveness property of info under each fairness
// assumption; nil when the graph has more than refLivenessMax states.
func (g *refGraph) liveness(info checker.Info) map[model.Fairness][]checker.Verdict {
	if len(g.succ) > refLivenessMax {
		return nil
	}
	out := map[model.Fairness][]checker.Verdict{}
	fairs := []model.Fairness{model.FairNone, model.FairProcess, model.FairAction}
	for _, f := range fairs {
		out[f] = make([]checker.Verdict, len(info.Props))
	}
	live := -1
	for i, p := range info.Props {
		if !p.Kind.Liveness() {
			continue
		}
		live++
		goal := func(s int) bool { return g.goals[s][live].Goal }
		reach := g.reachAvoiding(goal)
		for _, f := range fairs {
			escapes := g.escapes(info, f, goal, reach)
			v := checker.Pass
			for s := range g.succ {
				start := g.goals[s][live].From
				if p.Kind == model.Eventually {
					start = g.isInit(s)
				}
				if start && !goal(s) && escapes[s] {
					v = checker.Fail
				}
			}
			out[f][i] = v
		}
	}
	return out
}

func (g *refGraph) isInit(s int) bool {
	for _, i := range g.init {
		if i == s {
			return true
		}
	}
	return false
}

// reachAvoiding returns, for every ¬goal state, the ¬goal states it reaches
// in one step or more without passing through a goal state.
func (g *refGraph) reachAvoiding(goal func(int) bool) [][]bool {
	reach := make([][]bool, len(g.succ))
	for s := range g.succ {
		if goal(s) {
			continue
		}
		seen := make([]bool, len(g.succ))
		queue := []int{s}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, e := range g.succ[u] {
				if !goal(e.to) && !seen[e.to] {
					seen[e.to] = true
					queue = append(queue, e.to)
				}
			}
		}
		reach[s] = seen
	}
	return reach
}

// escapes reports, per state, whether some fair run from it never meets a
// goal state: it is a ¬goal state that reaches (in zero steps or more, over
// ¬goal states) a terminal state or a state on a fair ¬goal cycle.
func (g *refGraph) escapes(info checker.Info, f model.Fairness, goal func(int) bool, reach [][]bool) []bool {
	bad := make([]bool, len(g.succ))
	for s := range g.succ {
		switch {
		case goal(s):
		case len(g.succ[s]) == 0:
			bad[s] = true
		case reach[s][s]:
			bad[s] = g.fairComponent(info, f, s, reach)
		}
	}
	out := make([]bool, len(g.succ))
	for s := range g.succ {
		if goal(s) {
			continue
		}
		out[s] = bad[s]
		for t, r := range reach[s] {
			if r && bad[t] {
				out[s] = true
			}
		}
	}
	return out
}

// fairComponent reports whether the component of s (on a cycle) is fair
// under f: every class enabled in all its states is taken inside it.
func (g *refGraph) fairComponent(info checker.Info, f model.Fairness, s int, reach [][]bool) bool {
	var members []int
	for t, r := range reach[s] {
		if r && reach[t][s] {
			members = append(members, t)
		}
	}
	in := make(map[int]bool, len(members))
	for _, t := range members {
		in[t] = true
	}
	enabledEverywhere := map[string]bool{}
	for k, t := range members {
		here := map[string]bool{}
		for _, e := range g.succ[t] {
			if c, ok := refClass(info, f, e.action); ok {
				here[c] = true
			}
		}
		if k == 0 {
			enabledEverywhere = here
			continue
		}
		for c := range enabledEverywhere {
			if !here[c] {
				delete(enabledEverywhere, c)
			}
		}
	}
	for _, t := range members {
		for _, e := range g.succ[t] {
			if c, ok := refClass(info, f, e.action); ok && in[e.to] {
				delete(enabledEverywhere, c)
			}
		}
	}
	return len(enabledEverywhere) == 0
}

// refClass names the fairness class of a, as liveness.Classes defines them;
// false for an action no fairness assumption forces.
func refClass(info checker.Info, f model.Fairness, a model.Action) (string, bool) {
	r := info.Rules[a.Rule]
	switch {
	case f == model.FairNone || r.Env:
		return "", false
	case f == model.FairProcess:
		return fmt.Sprintf("p%d", a.Proc), true
	}
	return r.Name, true
}
