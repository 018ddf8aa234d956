package checker

import (
	"context"
	"fmt"
	"slices"
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
	// Uncounted lists message kinds that never count (an announcement
	// round a spec adds to its seed), whatever Kinds says.
	Uncounted []string
	// Measure, if not empty, names a measure of the system (a ghost
	// counter, so the system must be built with claims) to weight each
	// transition by instead: its increase along the transition. It is for
	// specs without a View.
	Measure string
	// Bits, if not empty, names a measure of the system (a ghost counter)
	// whose increase along a transition is the bits it sends: Cost then
	// has the most bits of any complete run too.
	Bits string
	// Phases, if not empty, names a measure of the system whose maximum
	// over the reachable states Cost reports: the phases (rounds, stages)
	// of a spec that only grow along a run, so that this maximum is the
	// most any run reaches.
	Phases string
	// CausalLimit, if positive, asks for the longest causal chain of any
	// run (causal.go), exploring at most this many stamped states. It needs
	// a View and an acyclic graph.
	CausalLimit int
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
	// MaxBits is the most bits of any complete run (CostOptions.Bits), and
	// Phases the largest value of the phase measure in any reachable state
	// (CostOptions.Phases); both -1 when not asked for.
	MaxBits, Phases int
	// Causal is the longest causal chain of any run (the most CausalDepth
	// of any run), and CausalStates the stamped states explored to find it;
	// Causal is -1 when not asked for, or when the exploration exceeded
	// CostOptions.CausalLimit (CausalStates then says how far it got).
	Causal, CausalStates int
}

// Cost builds the reachable graph of t's system and computes its costs.
func (t target[S]) Cost(ctx context.Context, opt CostOptions) (*Cost, error) {
	return systemCost(ctx, t.sys, opt)
}

func systemCost[S any](ctx context.Context, sys *model.System[S], opt CostOptions) (*Cost, error) {
	w0, err := edgeWeight(sys, opt)
	if err != nil {
		return nil, err
	}
	weights := []weight[S]{w0}
	if opt.Bits != "" {
		bits, err := measureIncrease(sys, opt.Bits)
		if err != nil {
			return nil, err
		}
		weights = append(weights, bits)
	}
	causal := -1 // index of the all-messages summary in weights
	if opt.CausalLimit > 0 && sys.View != nil {
		all, err := edgeWeight(sys, CostOptions{})
		if err != nil {
			return nil, err
		}
		causal, weights = len(weights), append(weights, all)
	}
	var phase func(s *S) int
	if opt.Phases != "" {
		m, err := measure(sys, opt.Phases)
		if err != nil {
			return nil, err
		}
		phase = m.Value
	}
	limits := Options{MaxStates: opt.MaxStates, Timeout: opt.Timeout}
	g, err := buildGraph(sys, nil, limits, newPhaseGuard(ctx, "cost", limits, time.Now(), 0), 0)
	if err != nil {
		return nil, err
	}
	c := &Cost{States: len(g.fp), Transitions: len(g.to), MaxBits: -1, Phases: -1, Causal: -1}
	if g.stop != "" || g.expanded < len(g.fp) {
		c.Incomplete = g.stop
		if c.Incomplete == "" {
			c.Incomplete = "graph not fully expanded"
		}
		return c, nil
	}
	visit := func(*S) {}
	if phase != nil {
		visit = func(s *S) { c.Phases = max(c.Phases, phase(s)) }
	}
	ws, sums, err := edgeWeights(sys, g, weights, visit)
	if err != nil {
		return nil, err
	}
	w := ws[0]
	order, cycleAt := sinkOrder(g)
	if cycleAt >= 0 {
		c.Cycle, err = cycleRun(sys, g, order, cycleAt)
		return c, err
	}
	for _, s := range order {
		if g.terminal(s) {
			c.Terminals++
		}
	}
	lo, hi := extremes(g, order, w)
	// The cost of a run from initial state i adds the weight of i itself.
	c.Min, c.Max = 1<<30, -1
	var minInit, maxInit uint32
	for i, s := range g.init {
		at := w0.diff(nil, w0.summary(&sys.Init[i]))
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
	if causal >= 0 {
		depth, explored, ok := maxCausalDepth(g, sums[causal], sys.Procs, opt.CausalLimit)
		c.CausalStates = explored
		if ok {
			c.Causal = depth
		}
	}
	if opt.Bits != "" {
		_, most := extremes(g, order, ws[1])
		for i, s := range g.init {
			c.MaxBits = max(c.MaxBits, weights[1].diff(nil, weights[1].summary(&sys.Init[i]))+int(most[s]))
		}
	}
	return c, nil
}

// extremes returns, for every state s, the fewest (lo[s]) and most (hi[s])
// weight on a path from s to a terminal state, the graph being acyclic and
// order a reverse topological order of it (sinkOrder).
func extremes(g *stateGraph, order []uint32, w []uint8) (lo, hi []int32) {
	lo, hi = make([]int32, len(g.fp)), make([]int32, len(g.fp))
	for _, s := range order {
		if g.terminal(s) {
			continue
		}
		a, b := g.edges(s)
		lo[s], hi[s] = 1<<30, -1
		for e := a; e < b; e++ {
			lo[s] = min(lo[s], int32(w[e])+lo[g.to[e]])
			hi[s] = max(hi[s], int32(w[e])+hi[g.to[e]])
		}
	}
	return lo, hi
}

// weight weighs a transition by comparing a summary of the state before it
// with one of the state after it: summary(s) is what the weight needs of s,
// read once per state, and diff(before, after) the weight of a transition
// between states so summarised; diff(nil, after) weighs an initial state.
type weight[S any] struct {
	summary func(s *S) []int32
	diff    func(before, after []int32) int
}

// edgeWeight weighs a transition by the counted messages it sends, or by
// the increase of the measure opt names; an initial state by the counted
// messages already in transit there (sent before the first step, as in
// Chang–Roberts' all-initiate), or by the measure's initial value.
//
// The messages a step sends are those on each link after it and not before
// it, as multisets (Messages): the summary of a state is its counted
// messages, each as its link's index and a number standing for its text,
// sorted, so that the View is rendered once per state, not per transition.
func edgeWeight[S any](sys *model.System[S], opt CostOptions) (weight[S], error) {
	if opt.Measure != "" {
		return measureIncrease(sys, opt.Measure)
	}
	if sys.View == nil {
		return weight[S]{}, fmt.Errorf("spec %s has no View and no measure was named: mc cannot tell which messages a step sends", sys.Spec)
	}
	texts := map[string]int32{}
	summary := func(s *S) []int32 {
		var out []int32
		for li, l := range sys.View(s).Chans {
			for _, m := range l.Msgs {
				if !counted(m, opt.Kinds, opt.Uncounted) {
					continue
				}
				id, ok := texts[m]
				if !ok {
					id = int32(len(texts))
					texts[m] = id
				}
				out = append(out, int32(li)<<24|id)
			}
		}
		slices.Sort(out)
		return out
	}
	return weight[S]{summary: summary, diff: sentMessages}, nil
}

// sentMessages is the size of the multiset difference after − before of
// two sorted summaries.
func sentMessages(before, after []int32) int {
	n, i := 0, 0
	for _, x := range after {
		for i < len(before) && before[i] < x {
			i++
		}
		if i < len(before) && before[i] == x {
			i++
			continue
		}
		n++
	}
	return n
}

// measure finds the measure of sys called name.
func measure[S any](sys *model.System[S], name string) (*model.Measure[S], error) {
	for i := range sys.Measures {
		if sys.Measures[i].Name == name {
			return &sys.Measures[i], nil
		}
	}
	return nil, fmt.Errorf("spec %s has no measure %q (is it built with claims?)", sys.Spec, name)
}

// measureIncrease weighs a transition by the increase of the measure called
// name along it, and an initial state by the measure's value there.
func measureIncrease[S any](sys *model.System[S], name string) (weight[S], error) {
	m, err := measure(sys, name)
	if err != nil {
		return weight[S]{}, err
	}
	return weight[S]{
		summary: func(s *S) []int32 { return []int32{int32(m.Value(s))} },
		diff: func(before, after []int32) int {
			if before == nil {
				return int(after[0])
			}
			return int(after[0] - before[0])
		},
	}, nil
}

// edgeWeights returns, per weight, the weight of every transition and the
// summary of every state, and calls visit on every state. It replays the graph in state order, keeping
// the encoding of each state only until it is expanded, and summarising
// each state for the weights when it is first reached.
func edgeWeights[S any](sys *model.System[S], g *stateGraph, weights []weight[S], visit func(s *S)) ([][]uint8, [][][]int32, error) {
	ws := make([][]uint8, len(weights))
	sums := make([][][]int32, len(weights))
	for k := range ws {
		ws[k], sums[k] = make([]uint8, len(g.to)), make([][]int32, len(g.fp))
	}
	enc := make([][]byte, len(g.fp))
	reached := func(t uint32, s *S) {
		enc[t] = sys.Encode(nil, s)
		for k, w := range weights {
			sums[k][t] = w.summary(s)
		}
	}
	for i, s := range g.init {
		if enc[s] == nil {
			reached(s, &sys.Init[i])
		}
	}
	var cur, next S
	for s := 0; s < g.expanded; s++ {
		if err := sys.Decode(enc[s], &cur); err != nil {
			return nil, nil, fmt.Errorf("internal error: state %d does not decode: %v", s, err)
		}
		enc[s] = nil
		visit(&cur)
		a, b := g.edges(uint32(s))
		for e := a; e < b; e++ {
			t := g.to[e]
			if int(t) > s && enc[t] == nil {
				if !sys.Apply(&cur, unpack(g.act[e]), &next) {
					return nil, nil, fmt.Errorf("internal error: transition %d of state %d does not replay", e-a, s)
				}
				reached(t, &next)
			}
			for k, w := range weights {
				n := w.diff(sums[k][s], sums[k][t])
				if n < 0 || n > 255 {
					return nil, nil, fmt.Errorf("internal error: a transition of state %d weighs %d (want 0..255)", s, n)
				}
				ws[k][e] = uint8(n)
			}
		}
	}
	return ws, sums, nil
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

// counted says whether a message counts: its kind is among kinds (or kinds
// is empty) and not among uncounted.
func counted(text string, kinds, uncounted []string) bool {
	k := MessageKind(text)
	return (len(kinds) == 0 || slices.Contains(kinds, k)) && !slices.Contains(uncounted, k)
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
		for _, l := range snap.View.Chans {
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
