package checker_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/changroberts"
)

// heights gives sys the measure "the longest path from here to a terminal
// state", read off its graph, when the graph is acyclic; on a graph with a
// cycle it gives the constant 0, which the first transition breaks.
func withHeights[S any](t *testing.T, sys *model.System[S]) (measured *model.System[S], acyclic bool) {
	t.Helper()
	_, height, acyclic := graphHeights(t, sys)
	m := *sys
	m.Termination = &model.Termination[S]{Doc: "longest path to a terminal state", Value: func(buf []int, s *S) []int {
		return append(buf, height[model.Fingerprint(sys.Encode(nil, s))])
	}}
	return &m, acyclic
}

// graphHeights builds sys's graph and, if it is acyclic, the length of the
// longest path from each state to a terminal state, by fingerprint.
func graphHeights[S any](t *testing.T, sys *model.System[S]) (*liveness.Graph, map[uint64]int, bool) {
	t.Helper()
	g, err := liveness.Build(sys, nil, liveness.Limits{}, nopGuard{}, 0, nil)
	if err != nil || g.Stop() != "" {
		t.Fatalf("graph: %v %s", err, g.Stop())
	}
	cycles, _ := liveness.CountCycles(g)
	height := map[uint64]int{}
	var depth func(s uint32) int
	depth = func(s uint32) int {
		if h, ok := height[g.FP(s)]; ok {
			return h
		}
		h := 0
		lo, hi := g.Edges(s)
		for e := lo; e < hi; e++ {
			h = max(h, depth(g.To(e))+1)
		}
		height[g.FP(s)] = h
		return h
	}
	if cycles == 0 {
		for s := 0; s < g.States(); s++ {
			depth(uint32(s))
		}
	}
	return g, height, cycles == 0
}

type nopGuard struct{}

func (nopGuard) Exceeded(int64) string                  { return "" }
func (nopGuard) Progress(int64, int64, int, int, int64) {}

// agree checks that the measure decides what the graph decides, with the
// same counterexamples, for one and two workers and both stores, and
// reports whether the marks phase decided it.
func agreeWithGraph[S any](t *testing.T, what string, plain, measured *model.System[S], acyclic bool) (marked bool) {
	t.Helper()
	for _, opt := range []checker.Options{{Workers: 1, Continue: true}, {Workers: 2, Continue: true}, {Workers: 2, Disk: t.TempDir(), Continue: true}, {Workers: 1}} {
		want := checker.Run(context.Background(), plain, opt)
		got := checker.Run(context.Background(), measured, opt)
		if got.Err != nil || want.Err != nil {
			t.Fatalf("%s: %v / %v", what, got.Err, want.Err)
		}
		method := checker.ByGraph
		if acyclic {
			method = checker.ByMeasure
		}
		if got.Liveness != nil && got.Liveness.Method != method {
			t.Fatalf("%s: decided by %s, want %s", what, got.Liveness.Method, method)
		}
		if !acyclic && got.Liveness != nil && got.WrongMeasure == nil {
			t.Fatalf("%s: a cyclic graph's constant measure was not caught", what)
		}
		marked = marked || (got.Liveness != nil && got.Liveness.Marked)
		if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions {
			t.Fatalf("%s %+v: measure %s %d/%d, graph %s %d/%d", what, opt, got.Verdict, got.States, got.Transitions, want.Verdict, want.States, want.Transitions)
		}
		for i := range want.Props {
			w, g := want.Props[i], got.Props[i]
			if w.Verdict != g.Verdict || fmt.Sprint(traceActions(w.Trace)) != fmt.Sprint(traceActions(g.Trace)) {
				t.Fatalf("%s %+v: %s: measure %s %v, graph %s %v", what, opt, w.Name, g.Verdict, traceActions(g.Trace), w.Verdict, traceActions(w.Trace))
			}
		}
	}
	return marked
}

func traceActions(tr *checker.Trace) []string {
	if tr == nil {
		return nil
	}
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Label)
	}
	return out
}

// On random specs, a measure decides every liveness property as the graph
// does where the graph is acyclic, with or without the marks phase, and a
// wrong one is caught, leaving the graph to decide, where it is not.
func TestMeasureAgreesWithGraphOnRandomSpecs(t *testing.T) {
	first, n := diffSeeds(t)
	acyclicSeen, cyclicSeen, markedSeen := 0, 0, 0
	for seed := first; seed < first+n; seed++ {
		sys := genSpec(seed, randomSize(seed)).system()
		measured, acyclic := withHeights(t, sys)
		if acyclic {
			acyclicSeen++
		} else {
			cyclicSeen++
		}
		if agreeWithGraph(t, fmt.Sprintf("seed %d", seed), sys, measured, acyclic) {
			markedSeen++
		}
	}
	if acyclicSeen == 0 || cyclicSeen == 0 || markedSeen == 0 || markedSeen == acyclicSeen {
		t.Fatalf("%d acyclic (%d of them decided by the marks phase) and %d cyclic random specs: the test needs each kind", acyclicSeen, markedSeen, cyclicSeen)
	}
}

// The election specs that declare a measure are decided by it at their
// smallest rings (the differential suite compares those verdicts with the
// reference checker's), except hp's witness-literal, whose message circling
// for ever breaks it.
func TestDeclaredMeasuresHold(t *testing.T) {
	decided := map[string]bool{}
	for _, e := range specs.All() {
		for _, p := range smallParams(e) {
			tg, err := e.Build(p)
			if err != nil {
				t.Fatal(err)
			}
			r := tg.Check(context.Background(), checker.Options{Workers: 1, Continue: true})
			if w := r.WrongMeasure; w != nil && p.Variant != "witness-literal" {
				t.Fatalf("%s %+v: declared measure broken: %v → %v", e.Name, p, w.Before, w.After)
			}
			if r.Liveness != nil && r.Liveness.Method == checker.ByMeasure {
				decided[e.Name] = true
			}
		}
	}
	for _, name := range []string{"changroberts", "lelann", "dkr", "hp", "franklin", "hs", "vlt", "vitanyi"} {
		if !decided[name] {
			t.Errorf("%s was not decided by its termination measure", name)
		}
	}
}

// A measure that does not decrease is reported with the transition, and
// the graph decides.
func TestWrongMeasureIsCaught(t *testing.T) {
	sys := genSpec(1, randomSize(1)).system()
	m := *sys
	m.Termination = &model.Termination[rstate]{Value: func(buf []int, s *rstate) []int { return append(buf, 0) }}
	hasLiveness := false
	for _, p := range m.Props {
		hasLiveness = hasLiveness || p.Kind.Liveness()
	}
	if !hasLiveness {
		m.Props = append(m.Props, model.TerminationProp[rstate]("ends", "", ""))
	}
	r := checker.Run(context.Background(), &m, checker.Options{Workers: 1, Continue: true})
	if r.WrongMeasure == nil || r.Liveness == nil || r.Liveness.Method != checker.ByGraph {
		t.Fatalf("wrong measure not caught: %+v", r.Liveness)
	}
	if tr := r.WrongMeasure.Trace; len(tr.Steps) < 1 || tr.Kind != "measure" {
		t.Fatalf("the wrong transition's trace: %+v", tr)
	}
}

// What the measure found survives a checkpoint (the goals that terminal
// states leave unmet; the marks phase that follows takes none): a run
// stopped at each level and resumed gives the uninterrupted run's counts
// and verdicts, with either store.
func TestMeasureSurvivesResume(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		sys := genSpec(seed, randomSize(seed)).system()
		measured, acyclic := withHeights(t, sys)
		if !acyclic {
			continue
		}
		for _, disk := range []bool{false, true} {
			opt := checker.Options{Workers: 1, Continue: true}
			if disk {
				opt.Disk = t.TempDir()
			}
			want := checker.Run(context.Background(), measured, opt)
			opt.Checkpoint = filepath.Join(t.TempDir(), "ck")
			opt.MaxStates = 1
			var got checker.Result
			for i := 0; i < 200; i++ {
				got = checker.Run(context.Background(), measured, opt)
				if got.Err != nil {
					t.Fatalf("seed %d: %v", seed, got.Err)
				}
				if got.Reason == "" {
					break
				}
				opt.Resume, opt.MaxStates = got.Checkpoint != nil, opt.MaxStates+1
			}
			if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions || got.Liveness == nil || got.Liveness.Method != checker.ByMeasure {
				t.Fatalf("seed %d disk %v: resumed %s %d, whole %s %d", seed, disk, got.Verdict, got.States, want.Verdict, want.States)
			}
			for i := range want.Props {
				if want.Props[i].Verdict != got.Props[i].Verdict {
					t.Fatalf("seed %d: %s resumed %s, whole %s", seed, want.Props[i].Name, got.Props[i].Verdict, want.Props[i].Verdict)
				}
			}
		}
	}
}

// A mutant property that fails on Chang–Roberts, whose measure holds:
// "eventually the last process leads" (the first has the largest id). The
// measure decides it, with the graph's counterexample, a finite run that
// replays and ends in a terminal state.
func TestMeasureCounterexampleReplays(t *testing.T) {
	sys, err := changroberts.New(model.Params{N: 4, IDs: ring.DescendingIDs(4)})
	if err != nil {
		t.Fatal(err)
	}
	addLastLeads(sys)
	r := checker.Run(context.Background(), sys, checker.Options{Workers: 2})
	p := resultOf(t, &r, "last-leads")
	if r.Liveness == nil || r.Liveness.Method != checker.ByMeasure || p.Verdict != checker.Fail || !p.Trace.Deadlock {
		t.Fatalf("mutant: %+v %+v", r.Liveness, p)
	}
	var actions []model.Action
	for _, s := range p.Trace.Steps {
		actions = append(actions, s.Action)
	}
	if err := checker.Of(sys).VerifyLasso("last-leads", model.FairProcess, p.Trace.Init, actions, -1); err != nil {
		t.Fatalf("the counterexample does not replay: %v", err)
	}
	plain := *sys
	plain.Termination = nil
	want := checker.Run(context.Background(), &plain, checker.Options{Workers: 2})
	if w := resultOf(t, &want, "last-leads"); fmt.Sprint(traceActions(w.Trace)) != fmt.Sprint(traceActions(p.Trace)) {
		t.Fatalf("measure's counterexample %v, graph's %v", traceActions(p.Trace), traceActions(w.Trace))
	}
}

// resultOf is r's verdict on the property called name.
func resultOf(t *testing.T, r *checker.Result, name string) checker.PropResult {
	t.Helper()
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("the run reports no property %s", name)
	return checker.PropResult{}
}

// addLastLeads adds to sys the property "eventually p3 is the leader", read
// off the state's variables.
func addLastLeads[S any](sys *model.System[S]) {
	sys.Props = append(sys.Props, model.EventuallyProp("last-leads", "mutant", "the last process is elected", func(s *S) bool {
		for _, v := range sys.Vars(s) {
			if v.Name == "p3.decided" {
				return v.Value == "leader"
			}
		}
		return false
	}))
}

// A measure is accepted exactly when it decreases on every transition of
// the graph, however each transition is checked (at once, at its target's
// expansion, or before a checkpoint: termination/bounds.go), and a transition
// reported does break it: random specs, their height measure raised on
// some states (and 0 on a cyclic graph), one and two workers, both stores,
// a checkpoint before every level.
func TestMeasureCheckCoversEveryTransition(t *testing.T) {
	first, n := diffSeeds(t)
	n = min(n, 60) // four runs and a graph each
	caught, held := 0, 0
	for seed := first; seed < first+n; seed++ {
		sys := genSpec(seed, randomSize(seed)).system()
		withLiveness(sys)
		g, height, _ := graphHeights(t, sys)
		value := func(fp uint64) int {
			if fp%5 == seed%5 {
				return height[fp] + int(fp>>60)%3
			}
			return height[fp]
		}
		m := *sys
		m.Termination = &model.Termination[rstate]{Value: func(buf []int, s *rstate) []int {
			return append(buf, value(model.Fingerprint(sys.Encode(nil, s))))
		}}
		holds := true
		for s := 0; s < g.States(); s++ {
			lo, hi := g.Edges(uint32(s))
			for e := lo; e < hi; e++ {
				holds = holds && value(g.FP(uint32(s))) > value(g.FP(g.To(e)))
			}
		}
		for _, opt := range []checker.Options{{Workers: 1, Continue: true}, {Workers: 2, Continue: true},
			{Workers: 2, Disk: t.TempDir(), Continue: true}, {Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck"), Continue: true}} {
			r := checker.Run(context.Background(), &m, opt)
			if r.Err != nil {
				t.Fatalf("seed %d: %v", seed, r.Err)
			}
			if (r.WrongMeasure == nil) != holds {
				t.Fatalf("seed %d %+v: measure holds on every transition: %v; reported wrong: %v", seed, opt, holds, r.WrongMeasure != nil)
			}
			if w := r.WrongMeasure; w != nil {
				var actions []model.Action
				for _, s := range w.Trace.Steps {
					actions = append(actions, s.Action)
				}
				before, err1 := checker.Replay(sys, w.Trace.Init, actions[:len(actions)-1])
				after, err2 := checker.Replay(sys, w.Trace.Init, actions)
				vb, va := m.Termination.Value(nil, &before)[0], m.Termination.Value(nil, &after)[0]
				if err1 != nil || err2 != nil || vb != w.Before[0] || va != w.After[0] || va < vb {
					t.Fatalf("seed %d %+v: reported %v → %v, replayed %d → %d", seed, opt, w.Before, w.After, vb, va)
				}
			}
		}
		if holds {
			held++
		} else {
			caught++
		}
	}
	if held == 0 || caught == 0 {
		t.Fatalf("%d measures held and %d were caught: the test needs both", held, caught)
	}
}

// withLiveness gives sys the property "every run ends" if it has no
// liveness property, so that a measure is checked.
func withLiveness(sys *model.System[rstate]) {
	for _, p := range sys.Props {
		if p.Kind.Liveness() {
			return
		}
	}
	sys.Props = append(sys.Props, model.TerminationProp[rstate]("ends", "", ""))
}

// A mark that reaches a state already expanded is passed on through it and
// its successors, with each store (the disk store's in rounds:
// termination/disk.go). States 0..6, one variable: 0 → 1 → 3 → 6 (terminal)
// and 0 → 2 → 4 → 5 → 3. "v = 5 leads to v = 1" fails, but only 5, at
// depth 3, has P: its edge to 3, expanded at depth 2 without marks, marks
// 3 and then 6, expanded at depth 3, which is terminal.
func TestMarksReachExpandedStates(t *testing.T) {
	g := &rspec{size: randSize{Procs: 1, Vars: 1, Bound: 7, Rules: 7, Props: 1}, init: [][]int{{0}},
		props: []rprop{{kind: model.LeadsTo, a: 0, c: 5, b: 0, d: 1}}}
	for _, e := range [][2]int{{0, 1}, {0, 2}, {1, 3}, {3, 6}, {2, 4}, {4, 5}, {5, 3}} {
		g.rules = append(g.rules, rrule{guard: []rcond{{v: 0, op: 0, c: e[0]}}, effects: []reffect{{kind: effAssign, v: 0, c: e[1]}}})
	}
	sys := g.system()
	measured, acyclic := withHeights(t, sys)
	if !acyclic {
		t.Fatal("the graph has a cycle")
	}
	agreeWithGraph(t, "re-expansion", sys, measured, acyclic)
	for _, disk := range []string{"", t.TempDir()} {
		r := checker.Run(context.Background(), measured, checker.Options{Workers: 1, Disk: disk})
		if p := r.Props[0]; r.Liveness == nil || r.Liveness.Method != checker.ByMeasure || p.Verdict != checker.Fail ||
			fmt.Sprint(traceActions(p.Trace)) != "[r1 p0 r4 p0 r5 p0 r6 p0 r3 p0]" {
			t.Fatalf("disk %q: %s %v, %+v", disk, p.Verdict, traceActions(p.Trace), r.Liveness)
		}
	}
}
