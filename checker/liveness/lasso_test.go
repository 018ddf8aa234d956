package liveness

import (
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// lasso finds a counterexample to prop (the graph's only property) under
// fair and renders it as "stem | loop" labels ("stem | stop" for a finite
// run), "" if there is none. A lasso found must pass Verify, which replays
// it through the rules.
func lasso(t *testing.T, arcs []arc, env []string, fair model.Fairness, prop model.Property[node]) string {
	t.Helper()
	sys := graphSystem(arcs, env)
	b := buildGraph(t, sys, 1, prop)
	cls := classes(t, sys, fair)
	l := FindLasso(b.Graph, cls, 0, prop.Kind == model.Eventually)
	if b.Halted() != "" {
		t.Fatalf("halted: %s", b.Halted())
	}
	if l == nil {
		return ""
	}
	actions := append(append([]model.Action{}, l.Stem...), l.Loop...)
	if _, err := Verify(sys, cls, &prop, l.Init, actions, len(l.Stem), l.Terminating); err != nil {
		t.Fatalf("fairness %s: the lasso %v does not replay: %v", fair, b.labels(l.Init, l.Stem, l.Loop), err)
	}
	ls := b.labels(l.Init, l.Stem, l.Loop)
	end := strings.Join(ls[1], " ")
	if l.Terminating {
		end = "stop"
	}
	return strings.TrimSpace(strings.Join(ls[0], " ") + " | " + end)
}

func eventually(goal ...int) model.Property[node] {
	return model.EventuallyProp("reach", "test", "", at(goal...))
}

type fairCase struct {
	fair model.Fairness
	want string // the lasso, "" for none
}

func pinLassos(t *testing.T, name string, arcs []arc, env []string, prop model.Property[node], cases ...fairCase) {
	t.Helper()
	for _, c := range cases {
		if got := lasso(t, arcs, env, c.fair, prop); got != c.want {
			t.Errorf("%s, fairness %s: lasso %q, want %q", name, c.fair, got, c.want)
		}
	}
}

// Weak fairness on a component: a class enabled in every state of it and
// taken by none of its edges makes it unfair, per process or per action
// class; without fairness every cycle counts.
func TestFairnessOfAComponent(t *testing.T) {
	// p0 idles while p1's exit stays enabled: unfair to p1 and to b.
	pinLassos(t, "idle beside an exit", []arc{{0, 0, "a", 0}, {0, 1, "b", 1}}, nil, eventually(1),
		fairCase{model.FairNone, "| a/p0→0"}, fairCase{model.FairProcess, ""}, fairCase{model.FairAction, ""})
	// One process, two rules: the process moves, rule b never does.
	pinLassos(t, "one process, two rules", []arc{{0, 0, "a", 0}, {0, 1, "b", 0}}, nil, eventually(1),
		fairCase{model.FairNone, "| a/p0→0"}, fairCase{model.FairProcess, "| a/p0→0"}, fairCase{model.FairAction, ""})
	// One rule, two processes: the rule moves, p1 never does.
	pinLassos(t, "one rule, two processes", []arc{{0, 0, "a", 0}, {0, 1, "a", 1}}, nil, eventually(1),
		fairCase{model.FairNone, "| a/p0→0"}, fairCase{model.FairProcess, ""}, fairCase{model.FairAction, "| a/p0→0"})
	// p1's exit is enabled at 0 only: disabled at 2, so weak fairness
	// does not force it.
	pinLassos(t, "an exit enabled now and then", []arc{{0, 2, "a", 0}, {2, 0, "a", 0}, {0, 1, "b", 1}}, nil, eventually(1),
		fairCase{model.FairProcess, "| a/p0→2 a/p0→0"}, fairCase{model.FairAction, "| a/p0→2 a/p0→0"})
	// An environment action is never forced.
	pinLassos(t, "an environment exit", []arc{{0, 0, "a", 0}, {0, 1, "env", 1}}, []string{"env"}, eventually(1),
		fairCase{model.FairProcess, "| a/p0→0"}, fairCase{model.FairAction, "| a/p0→0"})
}

// The stem is a shortest path to a bad component: 0→6→4 rather than
// 0→1→2→3→4, though a depth-first search would take the latter first
// (its arcs are enumerated last); the loop a shortest cycle from its
// entry when fairness asks nothing.
func TestTheStemIsShortest(t *testing.T) {
	arcs := []arc{{0, 6, "a", 0}, {6, 4, "a", 0}, {0, 1, "b", 0}, {1, 2, "b", 0}, {2, 3, "b", 0}, {3, 4, "b", 0},
		{4, 5, "a", 0}, {5, 7, "a", 0}, {7, 4, "a", 0}, {5, 4, "b", 0}}
	pinLassos(t, "two ways in", arcs, nil, eventually(9),
		fairCase{model.FairNone, "a/p0→6 a/p0→4 | a/p0→5 b/p0→4"})
}

// The loop takes every class that stays enabled in the component: with
// no fairness the self-loop at the entry is the shortest cycle; per
// process, p0's steps must be taken too, and the loop goes round.
func TestTheLoopTakesEveryClassThatStaysEnabled(t *testing.T) {
	arcs := []arc{{0, 1, "a", 0}, {1, 0, "a", 0}, {0, 0, "b", 1}, {1, 1, "b", 1}}
	pinLassos(t, "two processes everywhere", arcs, nil, eventually(9),
		fairCase{model.FairNone, "| b/p1→0"},
		fairCase{model.FairProcess, "| a/p0→1 a/p0→0 b/p1→0"},
		fairCase{model.FairAction, "| a/p0→1 a/p0→0 b/p1→0"})
}

// A run that stops before its goal is a finite counterexample; one that
// reaches it on every path is none.
func TestATerminalStateIsACounterexample(t *testing.T) {
	arcs := []arc{{0, 1, "a", 0}, {0, 2, "b", 0}, {2, 3, "a", 0}}
	pinLassos(t, "a dead end", arcs, nil, eventually(3), fairCase{model.FairProcess, "a/p0→1 | stop"})
	pinLassos(t, "every end is the goal", arcs, nil, eventually(1, 3), fairCase{model.FairNone, ""})
}

// "P leads to Q" looks only after P: the cycle 0 ⇄ 4 before P counts for
// nothing, the cycle 2 ⇄ 3 after it does; with Q at 2 the same graph
// passes, though Q never holds on the first cycle.
func TestLeadsToLooksAfterP(t *testing.T) {
	arcs := []arc{{0, 4, "a", 0}, {4, 0, "a", 0}, {0, 1, "b", 0}, {1, 2, "b", 0}, {2, 3, "a", 0}, {3, 2, "a", 0}}
	leads := func(q ...int) model.Property[node] { return model.LeadsToProp("leads", "test", "", at(1), at(q...)) }
	pinLassos(t, "after P", arcs, nil, leads(9), fairCase{model.FairNone, "b/p0→1 b/p0→2 | a/p0→3 a/p0→2"})
	pinLassos(t, "Q after P", arcs, nil, leads(2), fairCase{model.FairNone, ""})
	pinLassos(t, "no P", arcs, nil, model.LeadsToProp("leads", "test", "", at(8), at(9)), fairCase{model.FairNone, ""})
}
