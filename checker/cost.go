package checker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"mc/model"
)

// CostOptions choose what a cost sweep counts and bound its exploration.
type CostOptions struct {
	// Kinds lists the message kinds that count ("elect"); empty counts
	// every message. A message's kind is the first word of its rendering
	// in the spec's View: ⟨elect 5⟩ is of kind elect.
	Kinds []string
	// Measure, if not empty, names a measure of the system (a ghost
	// counter, so the system must be built with claims) to weight each
	// transition by instead: its increase along the transition. It is for
	// specs without a View.
	Measure string
	// MaxStates and Timeout bound the graph as they bound a check.
	MaxStates int64
	Timeout   time.Duration
}

// Cost is what the reachable graph of one system says about the messages
// its complete runs send. A complete run is a path from an initial state to
// a terminal state; every run of an acyclic finite graph is a prefix of one.
//
// Each transition is weighted by the messages it sends (of the counted
// kinds), found by comparing the View of the state before and after it
// (Messages). No counter is added to the state: the weights live on the
// edges of the graph, so the state space is the one mc check explores.
type Cost struct {
	States, Transitions, Terminals int
	// Incomplete says why the graph was not built to the end ("" when it
	// was); the other figures are then meaningless.
	Incomplete string
	// Cycle, when not nil, is a run that ends on a cycle of the graph
	// (LoopStart set): runs may go on forever and no cost is bounded.
	Cycle *Trace
	// Min and Max are the fewest and most counted messages any complete
	// run sends; MinRun and MaxRun are runs that send exactly that many.
	Min, Max       int
	MinRun, MaxRun *Trace
	// MinCausal and MaxCausal are the causal depths (CausalDepth) of
	// MinRun and MaxRun.
	MinCausal, MaxCausal int
}

// Cost builds the reachable graph of t's system and computes its costs.
func (t target[S]) Cost(ctx context.Context, opt CostOptions) (*Cost, error) {
	return systemCost(ctx, t.sys, opt)
}

func systemCost[S any](ctx context.Context, sys *model.System[S], opt CostOptions) (*Cost, error) {
	weight, err := edgeWeight(sys, opt)
	if err != nil {
		return nil, err
	}
	var deadline time.Time
	if opt.Timeout > 0 {
		deadline = time.Now().Add(opt.Timeout)
	}
	g, err := buildGraph(ctx, sys, nil, Options{MaxStates: opt.MaxStates, Timeout: opt.Timeout}, deadline)
	if err != nil {
		return nil, err
	}
	c := &Cost{States: len(g.fp), Transitions: len(g.to)}
	if g.stop != "" || g.expanded < len(g.fp) {
		c.Incomplete = g.stop
		if c.Incomplete == "" {
			c.Incomplete = "graph not fully expanded"
		}
		return c, nil
	}
	w, err := edgeWeights(sys, g, weight)
	if err != nil {
		return nil, err
	}
	order, cycleAt := sinkOrder(g)
	if cycleAt >= 0 {
		c.Cycle, err = cycleRun(sys, g, order, cycleAt)
		return c, err
	}
	// lo[s] and hi[s]: fewest and most messages from s to a terminal state.
	lo, hi := make([]int32, len(g.fp)), make([]int32, len(g.fp))
	for _, s := range order {
		if g.terminal(s) {
			c.Terminals++
			continue
		}
		a, b := g.edges(s)
		lo[s], hi[s] = 1<<30, -1
		for e := a; e < b; e++ {
			v := int32(w[e]) + lo[g.to[e]]
			lo[s] = min(lo[s], v)
			v = int32(w[e]) + hi[g.to[e]]
			hi[s] = max(hi[s], v)
		}
	}
	// The cost of a run from initial state i adds the weight of i itself.
	c.Min, c.Max = 1<<30, -1
	var minInit, maxInit uint32
	for i, s := range g.init {
		at := int(weight(nil, &sys.Init[i]))
		if at+int(lo[s]) < c.Min {
			c.Min, minInit = at+int(lo[s]), s
		}
		if at+int(hi[s]) > c.Max {
			c.Max, maxInit = at+int(hi[s]), s
		}
	}
	if c.MinRun, c.MinCausal, err = extremeRun(sys, g, w, lo, minInit); err != nil {
		return nil, err
	}
	if c.MaxRun, c.MaxCausal, err = extremeRun(sys, g, w, hi, maxInit); err != nil {
		return nil, err
	}
	return c, nil
}

// edgeWeight returns the weight of a transition from cur to next: the
// counted messages it sends, or the increase of the measure opt names. With
// cur nil it is the weight of the initial state next: the counted messages
// already in transit there (sent before the first step, as in Chang–Roberts'
// all-initiate), or the measure's initial value.
func edgeWeight[S any](sys *model.System[S], opt CostOptions) (func(cur, next *S) int, error) {
	if opt.Measure != "" {
		for _, m := range sys.Measures {
			if m.Name == opt.Measure {
				return func(cur, next *S) int {
					if cur == nil {
						return m.Value(next)
					}
					return m.Value(next) - m.Value(cur)
				}, nil
			}
		}
		return nil, fmt.Errorf("spec %s has no measure %q (is it built with claims?)", sys.Spec, opt.Measure)
	}
	if sys.View == nil {
		return nil, fmt.Errorf("spec %s has no View and no measure was named: mc cannot tell which messages a step sends", sys.Spec)
	}
	return func(cur, next *S) int {
		if cur == nil {
			n, v := 0, sys.View(next)
			for _, l := range v.Links {
				for _, m := range l.Msgs {
					if counted(m, opt.Kinds) {
						n++
					}
				}
			}
			return n
		}
		before, after := sys.View(cur), sys.View(next)
		sent, _ := Messages(&before, &after)
		n := 0
		for _, m := range sent {
			if counted(m.Text, opt.Kinds) {
				n++
			}
		}
		return n
	}, nil
}

// edgeWeights returns the weight of every transition. It replays the graph
// in state order, keeping the encoding of each state only until it is
// expanded.
func edgeWeights[S any](sys *model.System[S], g *stateGraph, weight func(cur, next *S) int) ([]uint8, error) {
	w := make([]uint8, len(g.to))
	enc := make([][]byte, len(g.fp))
	for i, s := range g.init {
		if enc[s] == nil {
			enc[s] = sys.Encode(nil, &sys.Init[i])
		}
	}
	var cur, next S
	for s := 0; s < g.expanded; s++ {
		if err := sys.Decode(enc[s], &cur); err != nil {
			return nil, fmt.Errorf("internal error: state %d does not decode: %v", s, err)
		}
		enc[s] = nil
		a, b := g.edges(uint32(s))
		for e := a; e < b; e++ {
			if !sys.Apply(&cur, unpack(g.act[e]), &next) {
				return nil, fmt.Errorf("internal error: transition %d of state %d does not replay", e-a, s)
			}
			if t := g.to[e]; enc[t] == nil && int(t) > s {
				enc[t] = sys.Encode(nil, &next)
			}
			n := weight(&cur, &next)
			if n < 0 || n > 255 {
				return nil, fmt.Errorf("internal error: a transition of state %d weighs %d (want 0..255)", s, n)
			}
			w[e] = uint8(n)
		}
	}
	return w, nil
}

// MessageKind is the kind of a rendered message: its first word, without
// the angle bracket ("⟨elect 5⟩" → "elect").
func MessageKind(text string) string {
	text = strings.TrimPrefix(text, "⟨")
	if i := strings.IndexAny(text, " ⟩"); i >= 0 {
		return text[:i]
	}
	return text
}

func counted(text string, kinds []string) bool {
	if len(kinds) == 0 {
		return true
	}
	k := MessageKind(text)
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// sinkOrder peels terminal states off the graph, then the states all of
// whose successors are peeled, and so on: a reverse topological order, in
// which every state comes after all its successors. If some state is never
// peeled the graph has a cycle; cycleAt is then such a state, -1 otherwise.
func sinkOrder(g *stateGraph) (order []uint32, cycleAt int) {
	n := g.expanded
	out := make([]uint32, n)
	predFirst := make([]uint32, n+1)
	for s := 0; s < n; s++ {
		a, b := g.edges(uint32(s))
		out[s] = uint32(b - a)
		for e := a; e < b; e++ {
			predFirst[g.to[e]+1]++
		}
	}
	for s := 0; s < n; s++ {
		predFirst[s+1] += predFirst[s]
	}
	pred := make([]uint32, len(g.to))
	fill := append([]uint32(nil), predFirst[:n]...)
	for s := 0; s < n; s++ {
		a, b := g.edges(uint32(s))
		for e := a; e < b; e++ {
			pred[fill[g.to[e]]] = uint32(s)
			fill[g.to[e]]++
		}
	}
	order = make([]uint32, 0, n)
	for s := 0; s < n; s++ {
		if out[s] == 0 {
			order = append(order, uint32(s))
		}
	}
	for i := 0; i < len(order); i++ {
		t := order[i]
		for _, p := range pred[predFirst[t]:predFirst[t+1]] {
			if out[p]--; out[p] == 0 {
				order = append(order, p)
			}
		}
	}
	if len(order) == n {
		return order, -1
	}
	for s := 0; s < n; s++ {
		if out[s] > 0 {
			return order, s
		}
	}
	return order, -1
}

// cycleRun returns a run from an initial state to a cycle through unpeeled
// states, starting the search at the unpeeled state start. Every unpeeled
// state has an edge to another unpeeled one, so following such edges must
// come back to a state already visited.
func cycleRun[S any](sys *model.System[S], g *stateGraph, order []uint32, start int) (*Trace, error) {
	peeled := make([]bool, g.expanded)
	for _, s := range order {
		peeled[s] = true
	}
	seen := map[uint32]int{}
	var walk []int // edges
	s := uint32(start)
	for {
		if _, ok := seen[s]; ok {
			break
		}
		seen[s] = len(walk)
		a, b := g.edges(s)
		for e := a; e < b; e++ {
			if !peeled[g.to[e]] {
				walk = append(walk, e)
				s = g.to[e]
				break
			}
		}
	}
	loop := walk[seen[s]:]
	init, prefix := pathFromInit(g, s)
	edges := append(prefix, loop...)
	tr, err := runTrace(sys, g, init, edges)
	if err != nil {
		return nil, err
	}
	at := len(prefix)
	tr.LoopStart = &at
	return tr, nil
}

// pathFromInit returns the initial state (its index in sys.Init) and the
// edges of a shortest path from it to target, by breadth-first search.
func pathFromInit(g *stateGraph, target uint32) (int, []int) {
	parent := make([]int, g.expanded)
	for i := range parent {
		parent[i] = -2
	}
	var queue []uint32
	for _, s := range g.init {
		if parent[s] == -2 {
			parent[s] = -1
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue) && parent[target] == -2; i++ {
		a, b := g.edges(queue[i])
		for e := a; e < b; e++ {
			if t := g.to[e]; parent[t] == -2 {
				parent[t] = e
				queue = append(queue, t)
			}
		}
	}
	var edges []int
	s := target
	for parent[s] >= 0 {
		edges = append(edges, parent[s])
		s = g.source(parent[s])
	}
	for i, j := 0, len(edges)-1; i < j; i, j = i+1, j-1 {
		edges[i], edges[j] = edges[j], edges[i]
	}
	init := 0
	for i, x := range g.init {
		if x == s {
			init = i
			break
		}
	}
	return init, edges
}

// extremeRun follows, from initial state from, an edge that attains the
// optimum best[] at every step, down to a terminal state.
func extremeRun[S any](sys *model.System[S], g *stateGraph, w []uint8, best []int32, from uint32) (*Trace, int, error) {
	var edges []int
	s := from
	for !g.terminal(s) {
		a, b := g.edges(s)
		next := -1
		for e := a; e < b; e++ {
			if int32(w[e])+best[g.to[e]] == best[s] {
				next = e
				break
			}
		}
		if next < 0 {
			return nil, 0, fmt.Errorf("internal error: no transition of state %d attains its cost", s)
		}
		edges = append(edges, next)
		s = g.to[next]
	}
	init := 0
	for i, x := range g.init {
		if x == from {
			init = i
			break
		}
	}
	tr, err := runTrace(sys, g, init, edges)
	if err != nil {
		return nil, 0, err
	}
	depth, err := CausalDepth(target[S]{sys}, tr)
	return tr, depth, err
}

// runTrace renders the path of edges from initial state init, checking that
// its replay ends in the state the graph says it does.
func runTrace[S any](sys *model.System[S], g *stateGraph, init int, edges []int) (*Trace, error) {
	actions := make([]model.Action, len(edges))
	for i, e := range edges {
		actions[i] = unpack(g.act[e])
	}
	end := g.init[init]
	if len(edges) > 0 {
		end = g.to[edges[len(edges)-1]]
	}
	return render(sys, init, actions, g.fp[end])
}

// CausalDepth is the time a run takes with unit message delays and
// instantaneous local steps: the length of its longest causal chain of
// messages, m1, m2, …, mk, in which each m(i+1) is sent by the process that
// received m(i), in the step that received it or a later one. It is
// computed with a clock per process: a step of p that receives a message
// stamped t sets p's clock to at least t, and every message p sends is
// stamped with p's clock plus one; the depth is the largest stamp. A
// received message is matched with the earliest pending message on its link
// that renders the same (exact on FIFO links; on bags, equal messages are
// interchangeable and the earliest is taken).
func CausalDepth(st Stepper, tr *Trace) (int, error) {
	init := st.Initial()
	if tr.Init < 0 || tr.Init >= len(init) {
		return 0, fmt.Errorf("trace starts from initial state %d of %d", tr.Init, len(init))
	}
	cur := init[tr.Init]
	clock := make(map[int]int)
	type pending struct {
		text  string
		stamp int
	}
	links := map[[2]int][]pending{}
	depth := 0
	// A message already in transit initially was sent at the start and
	// arrives at time 1.
	snap, err := st.Inspect(cur)
	if err != nil {
		return 0, err
	}
	if snap.View != nil {
		for _, l := range snap.View.Links {
			for _, text := range l.Msgs {
				k := [2]int{l.From, l.To}
				links[k] = append(links[k], pending{text, 1})
				depth = 1
			}
		}
	}
	for i, step := range tr.Steps {
		m, err := st.Step(cur, step.Action)
		if err != nil {
			return 0, fmt.Errorf("step %d: %v", i+1, err)
		}
		p := step.Action.Proc
		for _, r := range m.Received {
			q := links[[2]int{r.From, r.To}]
			for j := range q {
				if q[j].text == r.Text {
					clock[p] = max(clock[p], q[j].stamp)
					links[[2]int{r.From, r.To}] = append(q[:j:j], q[j+1:]...)
					break
				}
			}
		}
		for _, s := range m.Sent {
			k := [2]int{s.From, s.To}
			links[k] = append(links[k], pending{s.Text, clock[p] + 1})
			depth = max(depth, clock[p]+1)
		}
		cur = m.To
	}
	return depth, nil
}
