package chart

import (
	"fmt"
	"io"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tracefile"
)

// MaxDotStates is the largest state graph Dot draws: beyond it a drawing
// is no longer something a person reads.
const MaxDotStates = 100

// Dot writes, in Graphviz dot, the whole reachable state graph of t (the
// system f was recorded from) with f's run drawn in red: its states
// numbered by step, its last state filled. Each state is labelled with the
// variables in which it differs from the initial state. It refuses a graph
// of more than MaxDotStates states, and a trace that no longer replays.
func Dot(w io.Writer, t checker.Stepper, f *tracefile.File) error {
	g, err := explore(t)
	if err != nil {
		return err
	}
	run, err := path(t, f)
	if err != nil {
		return err
	}
	onRun := map[[2]uint64]int{} // edge → step
	at := map[uint64][]int{}     // state → steps after which the run is there
	for i, k := range run {
		at[k] = append(at[k], i)
		if i > 0 {
			onRun[[2]uint64{run[i-1], k}] = i
		}
	}
	base := varMap(g.snaps[0].Vars)
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  rankdir=TB;\n  node [shape=box, fontname=\"sans-serif\", fontsize=10];\n  edge [fontname=\"sans-serif\", fontsize=9];\n", quote(dotText(title(f))))
	for i, snap := range g.snaps {
		key := g.keys[i]
		label := fmt.Sprintf("s%d", i)
		if steps := at[key]; len(steps) > 0 {
			label += fmt.Sprintf(" (step %s)", joinInts(steps))
		}
		label += `\n` + changedFrom(base, snap.Vars)
		attrs := ""
		switch {
		case key == run[len(run)-1]:
			attrs = `, color="#b00000", penwidth=2, style=filled, fillcolor="#fde2e2"`
			if f.Property.Verdict == "pass" {
				attrs = `, color="#1a7f1a", penwidth=2, style=filled, fillcolor="#d9f2d9"`
			}
		case len(at[key]) > 0:
			attrs = `, color="#b00000", penwidth=2`
		}
		fmt.Fprintf(&b, "  s%d [label=%s%s];\n", i, quote(label), attrs)
	}
	for _, e := range g.edges {
		attrs := ""
		label := dotText(e.label)
		if step, ok := onRun[[2]uint64{g.keys[e.from], g.keys[e.to]}]; ok {
			label = fmt.Sprintf("%d: %s", step, label)
			attrs = `, color="#b00000", fontcolor="#b00000", penwidth=2`
		}
		fmt.Fprintf(&b, "  s%d -> s%d [label=%s%s];\n", e.from, e.to, quote(label), attrs)
	}
	b.WriteString("}\n")
	_, err = io.WriteString(w, b.String())
	return err
}

type graphEdge struct {
	from, to int
	label    string
}

type stateGraph struct {
	keys  []uint64
	snaps []checker.Snapshot
	edges []graphEdge
}

// explore enumerates t's reachable states breadth-first, refusing more
// than MaxDotStates.
func explore(t checker.Stepper) (*stateGraph, error) {
	g := &stateGraph{}
	index := map[uint64]int{}
	var queue []checker.State
	add := func(s checker.State) (int, error) {
		if i, ok := index[s.Key()]; ok {
			return i, nil
		}
		if len(g.keys) == MaxDotStates {
			info := t.Info()
			return 0, fmt.Errorf("the state graph of %s (variant %s) with these parameters has more than %d states; "+
				"--format dot draws only graphs a person can read (use the text or svg format)", info.Spec, info.Variant, MaxDotStates)
		}
		snap, err := t.Inspect(s)
		if err != nil {
			return 0, err
		}
		index[s.Key()] = len(g.keys)
		g.keys, g.snaps = append(g.keys, s.Key()), append(g.snaps, snap)
		queue = append(queue, s)
		return len(g.keys) - 1, nil
	}
	for _, s := range t.Initial() {
		if _, err := add(s); err != nil {
			return nil, err
		}
	}
	for from := 0; from < len(queue); from++ {
		moves, err := t.Moves(queue[from])
		if err != nil {
			return nil, err
		}
		for _, m := range moves {
			to, err := add(m.To)
			if err != nil {
				return nil, err
			}
			g.edges = append(g.edges, graphEdge{from: from, to: to, label: m.Label})
		}
	}
	return g, nil
}

// path replays f's steps in t and returns the keys of its states.
func path(t checker.Stepper, f *tracefile.File) ([]uint64, error) {
	init := t.Initial()
	if f.Init < 0 || f.Init >= len(init) {
		return nil, fmt.Errorf("the trace starts from initial state %d, but the spec has %d", f.Init, len(init))
	}
	info := t.Info()
	cur := init[f.Init]
	keys := []uint64{cur.Key()}
	for i, s := range f.Steps {
		m, err := t.Step(cur, model.Action{Rule: info.RuleIndex(s.Rule), Proc: s.Process, Choice: s.Choice})
		if err != nil {
			return nil, fmt.Errorf("the trace no longer replays at step %d (%s): %v (see mc trace --replay)", i+1, s.Action, err)
		}
		cur = m.To
		keys = append(keys, cur.Key())
	}
	return keys, nil
}

func varMap(vs []model.Var) map[string]string {
	m := make(map[string]string, len(vs))
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

// changedFrom lists, one per line, the variables of vs that differ from
// base.
func changedFrom(base map[string]string, vs []model.Var) string {
	var b strings.Builder
	for _, v := range vs {
		if base[v.Name] != v.Value {
			fmt.Fprintf(&b, `%s = %s\l`, dotText(v.Name), dotText(v.Value))
		}
	}
	if b.Len() == 0 {
		return "initial values"
	}
	return b.String()
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// dotText escapes text for a dot string.
func dotText(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

// quote wraps already escaped text (which may hold the \n and \l line
// breaks of dot labels) in a dot string's quotes.
func quote(s string) string { return `"` + s + `"` }
