package sweep

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ringcheck/mc/checker"
)

// CostOptions choose what a cost sweep counts and bound its exploration.
type CostOptions struct {
	// Kinds lists the message kinds that count ("elect"); empty counts
	// every message. A message's kind is what the spec's View says of it
	// (model.ChanView.Kinds): ⟨elect 5⟩ is of kind elect.
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
	// Reduce computes the costs on the reduced graph of mc check --por
	// (checker.GraphOptions.Reduce): every figure stays exact
	// (docs/sweeps.md, "Partial-order reduction and the message counts"),
	// but States, Transitions and CausalStates count the reduced graph's.
	Reduce bool
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
// (checker.Messages). No counter is added to the state: the weights live on
// the edges of the graph (checker.Graph), so the state space is the one mc
// check explores.
type Cost struct {
	States, Transitions, Terminals int
	// Incomplete says why the graph was not built to the end ("" when it
	// was); the other figures are then meaningless.
	Incomplete string
	// Cycle, when not nil, is a run that ends on a cycle of the graph
	// (LoopStart set): runs may go on forever and no cost is bounded.
	Cycle *checker.Trace
	// Min and Max are the fewest and most counted messages any complete
	// run sends; MinRun and MaxRun are runs that send exactly that many.
	Min, Max       int
	MinRun, MaxRun *checker.Trace
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

// CostOf builds the reachable graph of t's system and computes its costs.
func CostOf(ctx context.Context, t checker.Target, opt CostOptions) (*Cost, error) {
	w, err := newWeights(t, opt)
	if err != nil {
		return nil, err
	}
	g, err := t.Graph(ctx, checker.GraphOptions{MaxStates: opt.MaxStates, Timeout: opt.Timeout,
		Measures: w.measures, InTransit: w.inTransit, Visit: w.visit, Reduce: opt.Reduce})
	if err != nil {
		return nil, err
	}
	c := &Cost{States: g.States(), Transitions: g.Transitions(), MaxBits: -1, Phases: -1, Causal: -1}
	if g.Stop() != "" || g.Expanded() < g.States() {
		c.Incomplete = g.Stop()
		if c.Incomplete == "" {
			c.Incomplete = "graph not fully expanded"
		}
		return c, nil
	}
	if w.err != nil {
		return nil, w.err
	}
	if opt.Phases != "" {
		c.Phases = w.phases
	}
	ws, err := w.edges(g)
	if err != nil {
		return nil, err
	}
	order, cycleAt := sinkOrder(g)
	if cycleAt >= 0 {
		c.Cycle, err = cycleRun(g, order, cycleAt)
		return c, err
	}
	for _, s := range order {
		if g.Terminal(s) {
			c.Terminals++
		}
	}
	if err := minMaxRuns(t, g, order, w, ws[0], c); err != nil {
		return nil, err
	}
	if w.causal >= 0 {
		depth, explored, ok := maxCausalDepth(g, w.sums[w.causal], t.Info().Procs, opt.CausalLimit)
		c.CausalStates = explored
		if ok {
			c.Causal = depth
		}
	}
	if opt.Bits != "" {
		_, most := extremes(g, order, ws[1])
		for i, s := range g.Init() {
			c.MaxBits = max(c.MaxBits, w.initial(1, i, g)+int(most[s]))
		}
	}
	return c, nil
}

// minMaxRuns sets the fewest and most counted messages of c, weighted by w0
// on the transitions, with a run for each and its causal depth.
func minMaxRuns(t checker.Target, g *checker.Graph, order []uint32, w *weights, w0 []uint8, c *Cost) error {
	lo, hi := extremes(g, order, w0)
	// The cost of a run from initial state i adds the weight of i itself.
	c.Min, c.Max = 1<<30, -1
	var minInit, maxInit uint32
	for i, s := range g.Init() {
		at := w.initial(0, i, g)
		if at+int(lo[s]) < c.Min {
			c.Min, minInit = at+int(lo[s]), s
		}
		if at+int(hi[s]) > c.Max {
			c.Max, maxInit = at+int(hi[s]), s
		}
	}
	var err error
	if c.MinRun, c.MinCausal, err = extremeRun(t, g, w0, lo, minInit); err != nil {
		return err
	}
	c.MaxRun, c.MaxCausal, err = extremeRun(t, g, w0, hi, maxInit)
	return err
}

// extremes returns, for every state s, the fewest (lo[s]) and most (hi[s])
// weight on a path from s to a terminal state, the graph being acyclic and
// order a reverse topological order of it (sinkOrder).
func extremes(g *checker.Graph, order []uint32, w []uint8) (lo, hi []int32) {
	lo, hi = make([]int32, g.States()), make([]int32, g.States())
	for _, s := range order {
		if g.Terminal(s) {
			continue
		}
		a, b := g.Edges(s)
		lo[s], hi[s] = 1<<30, -1
		for e := a; e < b; e++ {
			lo[s] = min(lo[s], int32(w[e])+lo[g.To(e)])
			hi[s] = max(hi[s], int32(w[e])+hi[g.To(e)])
		}
	}
	return lo, hi
}

// weights are what a cost weighs transitions by: the counted messages a
// step sends, or the increase of a measure (the first weight); the bits it
// sends (opt.Bits); and every message it sends, for the longest causal
// chain. Each weight compares a summary of the state before a transition
// with one of the state after it, and the summaries are made once per
// state, as the graph's build observes it (visit).
type weights struct {
	list []weight
	// causal is the index of the all-messages weight in list, or -1.
	causal int
	// measures and inTransit are what the graph's build must observe.
	measures  []string
	inTransit bool
	// sums[k][s] is weight k's summary of state s.
	sums [][][]int32
	// phases is the largest value of the phase measure, at measures[phaseAt]
	// (phaseAt -1: not asked for).
	phases, phaseAt int
	// err is the first error a summary met.
	err error
}

// weight weighs a transition: summary(o) is what the weight needs of a
// state, and diff(before, after) the weight of a transition between states
// so summarised; diff(nil, after) weighs an initial state.
type weight struct {
	summary func(o checker.Observation) ([]int32, error)
	diff    func(before, after []int32) int
}

// newWeights says what t's transitions are weighed by under opt.
func newWeights(t checker.Target, opt CostOptions) (*weights, error) {
	w := &weights{causal: -1, phases: -1, phaseAt: -1}
	snap, err := t.Inspect(t.Initial()[0])
	if err != nil {
		return nil, err
	}
	hasView := snap.View != nil
	switch {
	case opt.Measure != "":
		w.list = append(w.list, w.measureIncrease(opt.Measure))
	case !hasView:
		return nil, fmt.Errorf("spec %s has no View and no measure was named: mc cannot tell which messages a step sends", t.Info().Spec)
	default:
		w.list = append(w.list, w.messages(t.Info().Spec, opt.Kinds, opt.Uncounted))
	}
	if opt.Bits != "" {
		w.list = append(w.list, w.measureIncrease(opt.Bits))
	}
	if opt.CausalLimit > 0 && hasView {
		w.causal, w.list = len(w.list), append(w.list, w.messages(t.Info().Spec, nil, nil))
	}
	if opt.Phases != "" {
		w.phaseAt = w.measure(opt.Phases)
	}
	w.sums = make([][][]int32, len(w.list))
	return w, nil
}

// measure is the index of the measure called name among those the graph's
// build observes, adding it.
func (w *weights) measure(name string) int {
	for i, m := range w.measures {
		if m == name {
			return i
		}
	}
	w.measures = append(w.measures, name)
	return len(w.measures) - 1
}

// visit summarises the next state of the graph for every weight.
func (w *weights) visit(_ uint32, o checker.Observation) {
	for k, wt := range w.list {
		sum, err := wt.summary(o)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.sums[k] = append(w.sums[k], sum)
	}
	if w.phaseAt >= 0 {
		w.phases = max(w.phases, o.Measures[w.phaseAt])
	}
}

// messages weighs a transition by the messages it sends of the counted
// kinds (kinds, or every kind if empty, less uncounted), and an initial
// state by those already in transit there (sent before the first step, as
// in Chang–Roberts' all-initiate).
//
// The messages a step sends are those on each link after it and not before
// it, as multisets (checker.Messages): the summary of a state is its
// counted messages, each as its link's index and a number standing for the
// message, sorted, so that the messages are listed once per state
// (model.System.InTransit), not per transition.
func (w *weights) messages(spec string, kinds, uncounted []string) weight {
	w.inTransit = true
	byKind := len(kinds) > 0 || len(uncounted) > 0
	ids := map[string]int32{}
	summary := func(o checker.Observation) ([]int32, error) {
		var out []int32
		var err error
		o.InTransit(func(ch int, kind string, msg []byte) {
			if byKind {
				if kind == "" {
					if err == nil {
						err = fmt.Errorf("spec %s: a message on channel %d names no kind, which the sweep counts by", spec, ch)
					}
					return
				}
				if !counted(kind, kinds, uncounted) {
					return
				}
			}
			id, ok := ids[string(msg)]
			if !ok {
				id = int32(len(ids))
				ids[string(msg)] = id
			}
			out = append(out, int32(ch)<<24|id)
		})
		slices.Sort(out)
		return out, err
	}
	return weight{summary: summary, diff: sentMessages}
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

// measureIncrease weighs a transition by the increase of the measure called
// name along it, and an initial state by the measure's value there.
func (w *weights) measureIncrease(name string) weight {
	m := w.measure(name)
	return weight{
		summary: func(o checker.Observation) ([]int32, error) { return []int32{int32(o.Measures[m])}, nil },
		diff: func(before, after []int32) int {
			if before == nil {
				return int(after[0])
			}
			return int(after[0] - before[0])
		},
	}
}

// initial is weight k of initial state i (an index of the system's initial
// states).
func (w *weights) initial(k, i int, g *checker.Graph) int {
	return w.list[k].diff(nil, w.sums[k][g.Init()[i]])
}

// edges returns, per weight, the weight of every transition of g.
func (w *weights) edges(g *checker.Graph) ([][]uint8, error) {
	ws := make([][]uint8, len(w.list))
	for k, wt := range w.list {
		ws[k] = make([]uint8, g.Transitions())
		sums := w.sums[k]
		for s := uint32(0); int(s) < g.Expanded(); s++ {
			a, b := g.Edges(s)
			for e := a; e < b; e++ {
				n := wt.diff(sums[s], sums[g.To(e)])
				if n < 0 || n > 255 {
					return nil, fmt.Errorf("internal error: a transition of state %d weighs %d (want 0..255)", s, n)
				}
				ws[k][e] = uint8(n)
			}
		}
	}
	return ws, nil
}

// counted says whether a message of kind kind counts: kind is among kinds
// (or kinds is empty) and not among uncounted.
func counted(kind string, kinds, uncounted []string) bool {
	return (len(kinds) == 0 || slices.Contains(kinds, kind)) && !slices.Contains(uncounted, kind)
}

// sinkOrder peels terminal states off the graph, then the states all of
// whose successors are peeled, and so on: a reverse topological order, in
// which every state comes after all its successors. If some state is never
// peeled the graph has a cycle; cycleAt is then such a state, -1 otherwise.
func sinkOrder(g *checker.Graph) (order []uint32, cycleAt int) {
	n := g.Expanded()
	out := make([]uint32, n)
	predFirst := make([]uint32, n+1)
	for s := 0; s < n; s++ {
		a, b := g.Edges(uint32(s))
		out[s] = uint32(b - a)
		for e := a; e < b; e++ {
			predFirst[g.To(e)+1]++
		}
	}
	for s := 0; s < n; s++ {
		predFirst[s+1] += predFirst[s]
	}
	pred := make([]uint32, g.Transitions())
	fill := append([]uint32(nil), predFirst[:n]...)
	for s := 0; s < n; s++ {
		a, b := g.Edges(uint32(s))
		for e := a; e < b; e++ {
			pred[fill[g.To(e)]] = uint32(s)
			fill[g.To(e)]++
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
func cycleRun(g *checker.Graph, order []uint32, start int) (*checker.Trace, error) {
	peeled := make([]bool, g.Expanded())
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
		a, b := g.Edges(s)
		for e := a; e < b; e++ {
			if !peeled[g.To(e)] {
				walk = append(walk, e)
				s = g.To(e)
				break
			}
		}
	}
	loop := walk[seen[s]:]
	init, prefix := pathFromInit(g, s)
	tr, err := g.Run(init, append(prefix, loop...))
	if err != nil {
		return nil, err
	}
	at := len(prefix)
	tr.LoopStart = &at
	return tr, nil
}

// pathFromInit returns the initial state (an index of the initial states) and the
// edges of a shortest path from it to target, by breadth-first search.
func pathFromInit(g *checker.Graph, target uint32) (int, []int) {
	parent := make([]int, g.Expanded())
	for i := range parent {
		parent[i] = -2
	}
	var queue []uint32
	for _, s := range g.Init() {
		if parent[s] == -2 {
			parent[s] = -1
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue) && parent[target] == -2; i++ {
		a, b := g.Edges(queue[i])
		for e := a; e < b; e++ {
			if t := g.To(e); parent[t] == -2 {
				parent[t] = e
				queue = append(queue, t)
			}
		}
	}
	var edges []int
	s := target
	for parent[s] >= 0 {
		edges = append(edges, parent[s])
		s = g.Source(parent[s])
	}
	for i, j := 0, len(edges)-1; i < j; i, j = i+1, j-1 {
		edges[i], edges[j] = edges[j], edges[i]
	}
	init := 0
	for i, x := range g.Init() {
		if x == s {
			init = i
			break
		}
	}
	return init, edges
}

// extremeRun follows, from initial state from, an edge that attains the
// optimum best[] at every step, down to a terminal state.
func extremeRun(st checker.Stepper, g *checker.Graph, w []uint8, best []int32, from uint32) (*checker.Trace, int, error) {
	var edges []int
	s := from
	for !g.Terminal(s) {
		a, b := g.Edges(s)
		next := -1
		for e := a; e < b; e++ {
			if int32(w[e])+best[g.To(e)] == best[s] {
				next = e
				break
			}
		}
		if next < 0 {
			return nil, 0, fmt.Errorf("internal error: no transition of state %d attains its cost", s)
		}
		edges = append(edges, next)
		s = g.To(next)
	}
	init := 0
	for i, x := range g.Init() {
		if x == from {
			init = i
			break
		}
	}
	tr, err := g.Run(init, edges)
	if err != nil {
		return nil, 0, err
	}
	depth, err := CausalDepth(st, tr)
	return tr, depth, err
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
func CausalDepth(st checker.Stepper, tr *checker.Trace) (int, error) {
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
