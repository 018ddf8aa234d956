package checker

// Liveness: "P leads to Q" and "eventually Q" under weak fairness.
//
// What is checked. A run is a maximal path of the state graph from an
// initial state: infinite, or finite and ending in a terminal state (no
// action enabled). "P leads to Q" fails when some fair run has a state
// satisfying P ∧ ¬Q after which Q never holds; "eventually Q" fails when some
// fair run never satisfies Q. A finite run is always fair (nothing is
// enabled at its end), so a run that stops in a terminal state before Q
// holds is a violation: mc does not add stuttering steps. An infinite run is
// fair when, for every fairness class c (fairness.go), c is not enabled
// continuously from some point on without being taken again.
//
// Weak fairness on a strongly connected component. Let C be a strongly
// connected component of the sub-graph of ¬Q states that has at least one
// edge (two or more states, or a self-loop). Call C fair when every class
// that is enabled in every state of C (in the full graph: an enabled action
// leading out of C counts) is taken by some edge inside C. If C is fair, a
// run that goes round C through all its states and edges forever is fair and
// never meets Q. If C is not fair, no run that stays in C's states forever
// is fair, nor one that stays in any part of C, since a class enabled in all
// of C is enabled in all of the part and taken nowhere in it. So it is
// enough to examine the maximal components; unlike strong fairness, weak
// fairness needs no recursive decomposition. Note what weak fairness does
// not promise: a class that is disabled in one state of a cycle may be
// ignored forever on that cycle.
//
// The algorithm, per property:
//
//  1. Build the reachable graph with every transition and its action
//     (graph.go), evaluating P and Q on every state.
//  2. Decompose the sub-graph of ¬Q states into strongly connected components
//     (scc.go: Tarjan, iterative). A component is bad when it is fair and has
//     an edge, or when it is a terminal state. Tarjan emits components in
//     reverse topological order, so in the same pass a component is marked
//     "can fail" when it is bad or has an edge to a ¬Q component that can fail.
//  3. Breadth-first search from the initial states over pairs (state, phase):
//     phase 0 is before P held (any state); a P ∧ ¬Q state that can fail
//     switches to phase 1 in place; phase 1 follows only ¬Q states that can
//     fail. For "eventually Q" the search starts in phase 1. The first phase-1
//     state in a bad component is the entry of the loop, and the search path
//     to it is the shortest prefix of any counterexample.
//  4. The loop: from the entry, within its component, visit for every class
//     a state where it is disabled or else take an edge of that class, then
//     return to the entry (each leg a shortest path). A terminal entry has no
//     loop: the counterexample is a finite maximal run.
//  5. The lasso is replayed through the spec before it is returned: every
//     step must be enabled, the loop must close on the state it starts from
//     (or the run must end in a terminal state), P must hold at some state
//     from which Q never holds again, and the loop must be fair, with
//     enabledness recomputed from the rules, independently of the graph.
//
// Memory: the graph costs about 30 to 45 bytes per state and 8 per
// transition (graph.go); each property then needs about 12 bytes per state
// for Tarjan, 8 for the search and two bits for P and Q. Everything is in
// memory, whatever the breadth-first search's store (--store disk bounds only
// the search): a liveness run is as large as its whole graph, which
// --max-states and the memory limit cap.
//
// Time: the graph is built by a second, single-threaded exploration after
// the breadth-first search, which keeps no edges; it costs about
// as much again as a one-worker safety run.
//
// Limits. The run's limits hold here as in the exploration: the state
// limit, the timeout (counted from the run's start), Ctrl-C and the memory
// limit stop the build, which keeps searchBytesPerState per state free under
// the memory limit for the search; the time, Ctrl-C and memory are checked
// again before each property's search. When the build stops, only the
// states whose transitions were all stored take part: a lasso found among
// them is a real counterexample (their enabled classes are known), so the
// property fails; otherwise its verdict is incomplete, never pass, and the
// graph's cycles are not counted, so that nothing claims every run is
// finite.
//
// The first violation. Unless Options.Continue is set, a run whose safety
// properties failed does not check liveness at all, and the properties are
// checked in order up to the first that fails; the rest are NotChecked.

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"mc/checker/internal/packed"
	"mc/model"
)

// LivenessStats describes the graph a liveness check built.
type LivenessStats struct {
	Fairness    Fairness
	States      int64
	Transitions int64
	// Cycles is the number of strongly connected components of the whole
	// graph that contain a cycle, and LargestCycle the number of states in
	// the largest; 0 means every run is finite.
	// Both are counted only when the graph was built whole and the check
	// was not stopped first: then Complete is set.
	Cycles, LargestCycle int64
	Complete             bool
	Bytes                int64
	// Elapsed is the time the liveness check took, after the exploration
	// that Result.SafetyElapsed measures.
	Elapsed time.Duration
	// Reason says why the check is incomplete, the graph's build or the
	// search stopped by a limit; "" when it is whole.
	Reason string
}

// searchBytesPerState is the memory the liveness check needs per state of
// the graph beyond the graph itself: Tarjan's arrays and stacks and the
// search's predecessors and queue (scc.go, findLasso). The graph's build
// stops while that still fits under the memory limit.
const searchBytesPerState = 40

// checkLiveness gives the liveness properties of sys their verdicts in res,
// which the breadth-first search has filled, and settles the overall verdict.
// Unless opt.Continue is set, it checks nothing once a safety property has
// failed, and stops at the first liveness property that fails. The run's
// limits hold here as in the exploration (phaseGuard): a liveness phase
// they stop leaves the properties it has not decided incomplete.
func checkLiveness[S any](ctx context.Context, sys *model.System[S], opt Options, res *Result, start time.Time) {
	var props []*model.Property[S]
	var at []int
	for i := range sys.Props {
		if sys.Props[i].Kind.Liveness() {
			props = append(props, &sys.Props[i])
			at = append(at, i)
		}
	}
	if len(props) == 0 || res.Err != nil || len(res.Props) != len(sys.Props) {
		return
	}
	// An error is never a verdict: the run is incomplete.
	abort := func(err error) {
		res.Err, res.Verdict = err, Incomplete
	}
	for _, p := range props {
		if (p.State == nil) != (p.Kind == model.Eventually && p.Terminal) || (p.Kind == model.LeadsTo) != (p.From != nil) {
			abort(fmt.Errorf("spec %s: liveness property %s is malformed", sys.Spec, p.Name))
			return
		}
	}
	if res.Verdict == Fail && !opt.Continue {
		for _, i := range at {
			res.Props[i].Verdict = NotChecked
		}
		res.StoppedAtViolation = true
		return
	}
	cls, err := newClasses(sys, opt.Fair)
	if err != nil {
		abort(err)
		return
	}
	began := time.Now()
	memLimit := memoryLimit(opt)
	if memLimit > 0 {
		// The search's structures are garbage now: hand them back to
		// the system, so that the limit measures what this phase holds.
		debug.FreeOSMemory()
	}
	guard := newPhaseGuard(ctx, PhaseLiveness, opt, start, memLimit)
	g, err := buildGraph(sys, props, opt, guard, searchBytesPerState)
	if err != nil {
		abort(err)
		return
	}
	st := &LivenessStats{Fairness: opt.Fair, States: int64(len(g.fp)), Transitions: int64(len(g.to)), Reason: g.stop}
	res.Liveness = st
	halt := guard.exceeded(0)
	if st.Reason == "" {
		st.Reason = halt
	}
	if st.Reason == "" {
		countCycles(g, st)
	}
	if err := searchLassos(sys, g, cls, props, at, opt, guard, halt != "", res); err != nil {
		abort(err)
		return
	}
	st.Bytes = g.bytes() + int64(g.expanded)*searchBytesPerState
	st.Elapsed = time.Since(began)
	if res.Reason == "" && st.Reason != "" {
		res.Reason = "liveness: " + st.Reason
	}
	settle(res)
}

// countCycles records in st the strongly connected components of the whole
// graph that contain a cycle.
func countCycles(g *stateGraph, st *LivenessStats) {
	sccs(g, func(uint32) bool { return true }, func(_ uint32, members, comp []uint32) {
		if len(members) > 1 || selfLoop(g, members[0]) {
			st.Cycles++
			st.LargestCycle = max(st.LargestCycle, int64(len(members)))
		}
	})
	st.Complete = true
}

// searchLassos gives each liveness property props[j] (res.Props[at[j]]) its
// verdict: Fail with a lasso found in g, even an incomplete g (its expanded
// states' transitions are all known, so a lasso among them is real); Pass
// when g is whole and has none; Incomplete when g is not whole, or when
// guard stops the search before the property's turn (halted: before the
// first), which res.Liveness.Reason then says unless the graph's build
// stopped first; and, unless opt.Continue, NotChecked after the first
// failure.
func searchLassos[S any](sys *model.System[S], g *stateGraph, cls *classes, props []*model.Property[S], at []int, opt Options, guard *phaseGuard, halted bool, res *Result) error {
	st := res.Liveness
	failed := false
	for j, p := range props {
		pr := &res.Props[at[j]]
		pr.Trace = nil
		if failed && !opt.Continue {
			pr.Verdict, res.StoppedAtViolation = NotChecked, true
			continue
		}
		if why := guard.exceeded(0); why != "" && !halted {
			halted = true
			if st.Reason == "" {
				st.Reason = why
			}
		}
		if halted {
			pr.Verdict = Incomplete
			continue
		}
		guard.report(Progress{States: st.States, Transitions: st.Transitions, Depth: g.depth, MemoryBytes: g.bytes()})
		l := findLasso(g, cls, g.from[j], g.goal[j], p.Kind == model.Eventually)
		switch {
		case l != nil:
			tr, err := renderLasso(sys, cls, p, l, g.fp[l.entry])
			if err != nil {
				return err
			}
			pr.Verdict, pr.Trace, failed = Fail, tr, true
		case g.stop != "":
			pr.Verdict = Incomplete
		default:
			pr.Verdict = Pass
		}
	}
	return nil
}

// settle recomputes the overall verdict from the properties' verdicts.
func settle(res *Result) {
	fail, incomplete := false, res.Reason != ""
	for _, p := range res.Props {
		fail = fail || p.Verdict == Fail
		incomplete = incomplete || p.Verdict == Incomplete
	}
	switch {
	case fail:
		res.Verdict = Fail
	case incomplete:
		res.Verdict = Incomplete
	default:
		res.Verdict = Pass
	}
}

func selfLoop(g *stateGraph, s uint32) bool {
	lo, hi := g.edges(s)
	for e := lo; e < hi; e++ {
		if g.to[e] == s {
			return true
		}
	}
	return false
}

// lasso is a counterexample in graph terms: the initial state it starts
// from (an index of sys.Init), the edges of its prefix and of its loop, and
// the loop's entry state (the terminal state when the loop is empty).
type lasso struct {
	init        int
	stem, loop  []model.Action
	entry       uint32
	terminating bool
}

// Markers in the search's predecessor array.
const (
	unseen  = ^uint32(0)
	root    = unseen - 1
	trigger = unseen - 2
)

// findLasso looks for a counterexample to "from leads to goal", or to
// "eventually goal" when eventually is set (from is then unused).
func findLasso(g *stateGraph, cls *classes, from, goal []uint64, eventually bool) *lasso {
	avoid := func(s uint32) bool { return !bit(goal, s) }
	var bad, canFail []bool
	every, taken, enabled := make([]uint64, cls.words), make([]uint64, cls.words), make([]uint64, cls.words)
	comp := sccs(g, avoid, func(id uint32, members, comp []uint32) {
		b := len(members) == 1 && g.terminal(members[0])
		if !b && (len(members) > 1 || selfLoop(g, members[0])) {
			b = fairComponent(g, cls, id, members, comp, every, taken, enabled)
		}
		can := b
		for _, m := range members {
			lo, hi := g.edges(m)
			for e := lo; e < hi && !can; e++ {
				w := g.to[e]
				can = int(w) < g.expanded && comp[w] < id && canFail[comp[w]]
			}
		}
		bad, canFail = append(bad, b), append(canFail, can)
	})
	n := uint32(g.expanded)
	fails := func(s uint32) bool { return s < n && comp[s] != unvisited && canFail[comp[s]] }

	// Breadth-first search over (state, phase); node = 2·state + phase.
	pred := make([]uint32, 2*int(n))
	for i := range pred {
		pred[i] = unseen
	}
	var queue []uint32
	discover := func(s uint32, phase uint32, how uint32) {
		if x := 2*s + phase; pred[x] == unseen {
			pred[x] = how
			queue = append(queue, x)
		}
		if phase == 0 && !eventually && bit(from, s) && fails(s) && pred[2*s+1] == unseen {
			pred[2*s+1] = trigger
			queue = append(queue, 2*s+1)
		}
	}
	for _, s := range g.init {
		switch {
		case s >= n:
		case !eventually:
			discover(s, 0, root)
		case fails(s):
			discover(s, 1, root)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		s, phase := x/2, x%2
		if phase == 1 && bad[comp[s]] {
			return buildLasso(g, cls, pred, s, comp)
		}
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			t := g.to[e]
			if t >= n || (phase == 1 && !fails(t)) {
				continue
			}
			discover(t, phase, uint32(e))
		}
	}
	return nil
}

// fairComponent reports whether component id (with an edge inside) lets a
// weakly fair run stay in it forever: every class enabled in all its states
// is taken by one of its edges. every, taken and enabled are scratch sets.
func fairComponent(g *stateGraph, cls *classes, id uint32, members, comp []uint32, every, taken, enabled []uint64) bool {
	for w := range every {
		every[w], taken[w] = ^uint64(0), 0
	}
	for _, m := range members {
		clear(enabled)
		lo, hi := g.edges(m)
		for e := lo; e < hi; e++ {
			k := cls.of(packed.Unpack(g.act[e]))
			set(enabled, k)
			if t := g.to[e]; int(t) < g.expanded && comp[t] == id {
				set(taken, k)
			}
		}
		for w := range every {
			every[w] &= enabled[w]
		}
	}
	for w := range every {
		if every[w]&^taken[w] != 0 {
			return false
		}
	}
	return true
}

// buildLasso turns the search's result into a lasso: the prefix from the
// predecessors, then a fair loop through entry's component.
func buildLasso(g *stateGraph, cls *classes, pred []uint32, entry uint32, comp []uint32) *lasso {
	l := &lasso{entry: entry}
	var stem []int
	for x := 2*entry + 1; ; {
		how := pred[x]
		switch how {
		case root:
			for i, s := range g.init {
				if s == x/2 {
					l.init = i
					break
				}
			}
			for i := len(stem) - 1; i >= 0; i-- {
				l.stem = append(l.stem, packed.Unpack(g.act[stem[i]]))
			}
			if g.terminal(entry) {
				l.terminating = true
				return l
			}
			for _, e := range fairLoop(g, cls, entry, comp) {
				l.loop = append(l.loop, packed.Unpack(g.act[e]))
			}
			return l
		case trigger:
			x--
		default:
			stem = append(stem, int(how))
			x = 2*g.source(int(how)) + x%2
		}
	}
}

// fairLoop returns the edges of a loop from entry back to entry within its
// component that satisfies every fairness class: for each class it visits a
// state where the class is disabled or takes an edge of the class. It goes
// greedily from target to target, skipping classes the loop already
// satisfies, then closes the loop with a shortest path.
func fairLoop(g *stateGraph, cls *classes, entry uint32, comp []uint32) []int {
	c := comp[entry]
	inside := func(s uint32) bool { return int(s) < g.expanded && comp[s] == c }
	enabledAt := func(s uint32, m []uint64) {
		clear(m)
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			set(m, cls.of(packed.Unpack(g.act[e])))
		}
	}
	// done holds the classes the loop satisfies so far.
	done, enabled := make([]uint64, cls.words), make([]uint64, cls.words)
	visit := func(s uint32) {
		enabledAt(s, enabled)
		for w := range done {
			done[w] |= ^enabled[w]
		}
	}
	var loop []int
	walk := func(path []int) {
		for _, e := range path {
			set(done, cls.of(packed.Unpack(g.act[e])))
			visit(g.to[e])
		}
		loop = append(loop, path...)
	}
	visit(entry)
	cur := entry
	for k := 0; k < cls.count; k++ {
		if has(done, k) {
			continue
		}
		// A state of the component where k is disabled, else an edge of k
		// inside it; the component is fair, so one exists.
		var to uint32
		edge := -1
		for s := uint32(0); int(s) < g.expanded && edge < 0; s++ {
			if !inside(s) {
				continue
			}
			if enabledAt(s, enabled); !has(enabled, k) {
				to = s
				break
			}
			lo, hi := g.edges(s)
			for e := lo; e < hi && edge < 0; e++ {
				if inside(g.to[e]) && cls.of(packed.Unpack(g.act[e])) == k {
					to, edge = s, e
				}
			}
		}
		walk(shortestPath(g, inside, cur, to, false))
		cur = to
		if edge >= 0 {
			walk([]int{edge})
			cur = g.to[edge]
		}
	}
	walk(shortestPath(g, inside, cur, entry, len(loop) == 0))
	return loop
}

// shortestPath returns the edges of a shortest path from a to b through
// states for which inside holds; with nonEmpty it has at least one edge
// (a shortest cycle when a = b). A path must exist.
func shortestPath(g *stateGraph, inside func(uint32) bool, a, b uint32, nonEmpty bool) []int {
	if a == b && !nonEmpty {
		return nil
	}
	via := map[uint32]int{}
	queue := []uint32{a}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			t := g.to[e]
			if _, seen := via[t]; seen || !inside(t) {
				continue
			}
			via[t] = e
			if t == b {
				var path []int
				for x := b; ; {
					path = append(path, via[x])
					x = g.source(via[x])
					if x == a {
						break
					}
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			queue = append(queue, t)
		}
	}
	panic("checker: no path inside a strongly connected component")
}
