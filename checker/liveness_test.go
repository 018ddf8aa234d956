package checker

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
)

// An explicit graph as a system: the state is the node the run is at, and
// every edge is an action of a named rule at a process. It pins the
// liveness algorithm on graphs whose fair and unfair cycles are known,
// apart from any protocol.
type arc struct {
	from, to int
	rule     string
	proc     int
}

type at struct{ node int }

// explicit builds the system of arcs starting at node 0, with the rules
// named in env marked as environment actions. Its terminal nodes are proper
// ends: the liveness properties judge them.
func explicit(arcs []arc, env []string, props ...model.Property[at]) *model.System[at] {
	var names []string
	procs := 1
	for _, a := range arcs {
		if !contains(names, a.rule) {
			names = append(names, a.rule)
		}
		procs = max(procs, a.proc+1)
	}
	// out returns the arcs of rule r at process p leaving node.
	out := func(node int, r string, p int) []arc {
		var xs []arc
		for _, a := range arcs {
			if a.from == node && a.rule == r && a.proc == p {
				xs = append(xs, a)
			}
		}
		return xs
	}
	sys := &model.System[at]{
		Spec: "explicit", Procs: procs, Init: []at{{0}}, Props: props, Ends: model.EveryEnd[at],
		Copy:   func(d, s *at) { *d = *s },
		Encode: func(b []byte, s *at) []byte { return model.AppendUint(b, uint64(s.node)) },
		Decode: func(b []byte, s *at) error {
			d := model.NewDecoder(b)
			s.node = d.Int()
			return d.Finish()
		},
		Vars: func(s *at) []model.Var { return []model.Var{{Name: "at", Value: fmt.Sprint(s.node)}} },
	}
	for _, name := range names {
		sys.Rules = append(sys.Rules, model.Rule[at]{
			Name:    name,
			Env:     contains(env, name),
			Guard:   func(s *at, p int) bool { return len(out(s.node, name, p)) > 0 },
			Choices: func(s *at, p int) int { return len(out(s.node, name, p)) },
			Do:      func(s *at, p, k int) bool { s.node = out(s.node, name, p)[k].to; return true },
			Label: func(s *at, p, k int) string {
				return fmt.Sprintf("%s/p%d→%d", name, p, out(s.node, name, p)[k].to)
			},
		})
	}
	return sys
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func in(nodes ...int) func(s *at) bool {
	return func(s *at) bool {
		for _, n := range nodes {
			if s.node == n {
				return true
			}
		}
		return false
	}
}

func eventually(goal ...int) model.Property[at] {
	return model.EventuallyProp("reach", "test", "", in(goal...))
}

// lassoShape renders a liveness trace as "stem | loop" labels, or
// "stem | stop" for a finite maximal run.
func lassoShape(tr *Trace) string {
	var stem, loop []string
	for i, s := range tr.Steps {
		if tr.LoopStart != nil && i >= *tr.LoopStart {
			loop = append(loop, s.Label)
		} else {
			stem = append(stem, s.Label)
		}
	}
	end := strings.Join(loop, " ")
	if tr.Deadlock {
		end = "stop"
	}
	return strings.TrimSpace(strings.Join(stem, " ") + " | " + end)
}

// verdictOf runs sys under fairness fair and returns the verdict of
// property "reach" or "leads" and its lasso shape.
func verdictOf(t *testing.T, sys *model.System[at], fair model.Fairness, opt Options) (Verdict, string) {
	t.Helper()
	opt.Fair = fair
	r := Run(context.Background(), sys, opt)
	if r.Err != nil {
		t.Fatalf("%s: %v", fair, r.Err)
	}
	p := r.Props[0]
	if p.Verdict == Fail {
		if p.Trace == nil {
			t.Fatalf("%s: failed without a trace", fair)
		}
		return Fail, lassoShape(p.Trace)
	}
	if p.Trace != nil {
		t.Fatalf("%s: %s with a trace", fair, p.Verdict)
	}
	return p.Verdict, ""
}

type expect struct {
	fair    model.Fairness
	verdict Verdict
	shape   string
}

func pin(t *testing.T, name string, sys *model.System[at], cases ...expect) {
	t.Helper()
	for _, c := range cases {
		// The graph in memory, and on disk (the disk store's).
		for _, opt := range []Options{{}, {Disk: t.TempDir()}} {
			v, shape := verdictOf(t, sys, c.fair, opt)
			if v != c.verdict || shape != c.shape {
				t.Errorf("%s, fairness %s, disk %v: %s %q; want %s %q", name, c.fair, opt.Disk != "", v, shape, c.verdict, c.shape)
			}
		}
	}
}

// A process that idles in a self-loop while another's action stays enabled:
// unfair under either fairness, a counterexample without.
func TestLivenessSelfLoopIsUnfair(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 0, "b", 1}}, nil, eventually(1))
	pin(t, "self-loop", sys,
		expect{model.FairNone, Fail, "| b/p1→0"},
		expect{model.FairProcess, Pass, ""},
		expect{model.FairAction, Pass, ""})
}

// p0 loops on its own action c while its action a stays enabled: fair to
// the process (it keeps stepping), unfair to the action class a.
func TestLivenessFairPerProcessUnfairPerAction(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 2, "c", 0}, {2, 0, "c", 0}, {2, 1, "a", 0}}, nil, eventually(1))
	pin(t, "process-but-not-action", sys,
		expect{model.FairNone, Fail, "| c/p0→2 c/p0→0"},
		expect{model.FairProcess, Fail, "| c/p0→2 c/p0→0"},
		expect{model.FairAction, Pass, ""})
}

// p1 loops on a while p0's a stays enabled: fair to the class a (taken by
// p1), unfair to process p0.
func TestLivenessFairPerActionUnfairPerProcess(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 2, "a", 1}, {2, 0, "a", 1}, {2, 1, "a", 0}}, nil, eventually(1))
	pin(t, "action-but-not-process", sys,
		expect{model.FairNone, Fail, "| a/p1→2 a/p1→0"},
		expect{model.FairProcess, Pass, ""},
		expect{model.FairAction, Fail, "| a/p1→2 a/p1→0"})
}

// Weak fairness only forces an action that stays enabled: p0's a is
// disabled at node 3 of the cycle 0 → 3 → 0, so the cycle is fair.
func TestLivenessWeakFairnessIgnoresIntermittentActions(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 3, "b", 1}, {3, 0, "b", 1}}, nil, eventually(1))
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		pin(t, "intermittent", sys, expect{f, Fail, "| b/p1→3 b/p1→0"})
	}
}

// A run that stops in a terminal state before the goal is a counterexample
// under every fairness: a finite maximal run.
func TestLivenessTerminalStateIsAFiniteCounterexample(t *testing.T) {
	sys := explicit([]arc{{0, 1, "b", 0}, {0, 2, "a", 0}}, nil, eventually(1))
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		pin(t, "terminal", sys, expect{f, Fail, "a/p0→2 | stop"})
	}
}

// Leads-to only counts what follows a P state: the self-loop at 0 comes
// before P (node 2) and is no counterexample; the cycle 2 ↔ 3 after it is,
// under every fairness here since p0's d is disabled at 3. Once d is also
// enabled at 3, per-process fairness forces it.
func TestLivenessLeadsToCountsOnlyWhatFollowsP(t *testing.T) {
	arcs := []arc{{0, 0, "b", 1}, {0, 2, "a", 0}, {2, 3, "c", 1}, {3, 2, "c", 1}, {2, 4, "d", 0}}
	leads := model.LeadsToProp("leads", "test", "", in(2), in(4))
	sys := explicit(arcs, nil, leads)
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		pin(t, "leads-to", sys, expect{f, Fail, "a/p0→2 | c/p1→3 c/p1→2"})
	}
	r := Run(context.Background(), sys, Options{})
	if tr := r.Props[0].Trace; tr == nil || tr.From == nil || *tr.From != 1 || *tr.LoopStart != 1 {
		t.Fatalf("leads-to trace: %+v", tr)
	}
	fixed := explicit(append(arcs, arc{3, 4, "d", 0}), nil, leads)
	pin(t, "leads-to, d always enabled", fixed,
		expect{model.FairNone, Fail, "a/p0→2 | c/p1→3 c/p1→2"},
		expect{model.FairProcess, Pass, ""},
		expect{model.FairAction, Pass, ""})
	// P and Q in the same state: satisfied at once.
	same := explicit(arcs, nil, model.LeadsToProp("leads", "test", "", in(4), in(4)))
	pin(t, "P = Q", same, expect{model.FairNone, Pass, ""})
}

// Of two counterexamples the one with the shorter prefix is reported.
func TestLivenessPrefersTheShortestPrefix(t *testing.T) {
	sys := explicit([]arc{
		{0, 1, "a", 0}, {1, 2, "a", 0}, {2, 3, "a", 0}, {3, 3, "a", 0}, // long way to a loop
		{0, 5, "b", 0}, {5, 6, "b", 0}, {6, 5, "b", 0}, // short way
		{0, 9, "c", 0},
	}, nil, eventually(9))
	pin(t, "shortest", sys, expect{model.FairNone, Fail, "b/p0→5 | b/p0→6 b/p0→5"})
}

// Environment actions are never forced and are not a step of their
// process: the user's "ask" self-loop does not make p0's loop fair.
func TestLivenessEnvironmentActionsAreNotFair(t *testing.T) {
	arcs := []arc{{0, 1, "go", 0}, {0, 0, "ask", 0}}
	env := explicit(arcs, []string{"ask"}, eventually(1))
	pin(t, "env", env,
		expect{model.FairNone, Fail, "| ask/p0→0"},
		expect{model.FairProcess, Pass, ""},
		expect{model.FairAction, Pass, ""})
	plain := explicit(arcs, nil, eventually(1))
	pin(t, "not env", plain, expect{model.FairProcess, Fail, "| ask/p0→0"})
	// An environment action that is the only way on is not forced either.
	stuck := explicit([]arc{{0, 1, "ask", 0}}, []string{"ask"}, eventually(1))
	pin(t, "stuck", stuck, expect{model.FairProcess, Pass, ""})
}

// The loop of a lasso satisfies every class: here both processes are
// enabled everywhere, so the shortest cycle (p1's self-loop) is not enough
// and the loop must take a step of p0 too.
func TestLivenessLoopTakesEveryClassThatStaysEnabled(t *testing.T) {
	sys := explicit([]arc{
		{0, 0, "w", 1}, {0, 1, "x", 0}, {1, 0, "x", 0}, {1, 2, "y", 1}, {2, 0, "z", 0}, {2, 2, "y", 1},
	}, nil, eventually(7))
	if _, shape := verdictOf(t, sys, model.FairNone, Options{}); shape != "| w/p1→0" {
		t.Fatalf("without fairness the loop is the self-loop, got %q", shape)
	}
	for _, f := range []model.Fairness{model.FairProcess, model.FairAction} {
		v, shape := verdictOf(t, sys, f, Options{})
		if v != Fail || !strings.Contains(shape, "/p0") || !strings.Contains(shape, "/p1") {
			t.Errorf("%s: %s %q, want a loop with steps of p0 and p1", f, v, shape)
		}
	}
}

// A limit makes a liveness property incomplete, never pass; a lasso found
// among the states explored before the limit is still a counterexample.
func TestLivenessLimitsAreHonest(t *testing.T) {
	var chain []arc
	for i := 0; i < 9; i++ {
		chain = append(chain, arc{i, i + 1, "a", 0})
	}
	sys := explicit(chain, nil, eventually(42))
	if v, _ := verdictOf(t, sys, model.FairProcess, Options{MaxStates: 5}); v != Incomplete {
		t.Fatalf("chain cut at 5 states: %s, want incomplete", v)
	}
	if v, shape := verdictOf(t, sys, model.FairProcess, Options{}); v != Fail || !strings.HasSuffix(shape, "| stop") {
		t.Fatalf("whole chain: %s %q", v, shape)
	}
	looped := explicit(append(chain, arc{0, 0, "b", 1}), nil, eventually(42))
	r := Run(context.Background(), looped, Options{MaxStates: 3, Fair: model.FairNone})
	if r.Verdict != Fail || r.Props[0].Verdict != Fail || r.Liveness.Reason == "" {
		t.Fatalf("lasso before the limit: %s / %s, reason %q", r.Verdict, r.Props[0].Verdict, r.Liveness.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := Run(ctx, sys, Options{}); r.Verdict != Incomplete || r.Props[0].Verdict != Incomplete {
		t.Fatalf("cancelled: %s / %s", r.Verdict, r.Props[0].Verdict)
	}
}

// The decomposition is iterative: a cycle of 100 000 states is one
// component, found without deep recursion, and its lasso replays.
func TestLivenessLongCycle(t *testing.T) {
	const n = 100000
	sys := countersSystem(0, eventually42())
	sys.Procs = 1
	sys.Init = []counters{{x: []int{0, 0}}}
	sys.Rules = []model.Rule[counters]{{
		Name:  "next",
		Guard: func(*counters, int) bool { return true },
		Do:    func(s *counters, _, _ int) bool { s.x[0] = (s.x[0] + 1) % n; return true },
	}}
	r := Run(context.Background(), sys, Options{})
	if r.Err != nil || r.Verdict != Fail || r.Liveness.Cycles != 1 || r.Liveness.LargestCycle != n {
		t.Fatalf("%s (%v), stats %+v", r.Verdict, r.Err, r.Liveness)
	}
	if tr := r.Props[0].Trace; len(tr.Steps) != n || *tr.LoopStart != 0 {
		t.Fatalf("lasso of %d steps from %d, want a loop of %d from 0", len(tr.Steps), *tr.LoopStart, n)
	}
}

func eventually42() model.Property[counters] {
	return model.EventuallyProp("reach", "test", "", func(s *counters) bool { return s.x[0] == -42 })
}

// A lasso that is not a counterexample is caught on replay.
func TestVerifyLassoRejectsWhatIsNotACounterexample(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {1, 0, "a", 0}, {0, 2, "b", 1}, {1, 2, "b", 1}}, nil, eventually(2))
	cls, _ := liveness.NewClasses(sys, model.FairProcess)
	p := &sys.Props[0]
	a := model.Action{Rule: 0, Proc: 0}
	b := model.Action{Rule: 1, Proc: 1}
	cases := []struct {
		name    string
		actions []model.Action
		loop    int
		stops   bool
	}{
		{"open loop", []model.Action{a}, 0, false},
		{"unfair to p1 (b enabled at 0 and 1)", []model.Action{a, a}, 0, false},
		{"not terminal", []model.Action{a}, 0, true},
		{"not enabled", []model.Action{b, b}, 0, false},
		{"reaches the goal", []model.Action{b}, 0, true},
	}
	for _, c := range cases {
		if _, err := liveness.Verify(sys, cls, p, 0, c.actions, c.loop, c.stops); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	none, _ := liveness.NewClasses(sys, model.FairNone)
	if _, err := liveness.Verify(sys, none, p, 0, []model.Action{a, a}, 0, false); err != nil {
		t.Errorf("a real unfair-allowed loop was rejected: %v", err)
	}
}

// The zero Options check liveness under weak fairness per process.
func TestDefaultFairnessIsPerProcess(t *testing.T) {
	var zero Options
	if zero.Fair != model.FairProcess {
		t.Fatal("the default fairness is not per process")
	}
}

// A combination mc cannot check soundly is refused, not guessed at: rules
// that share a name, one an environment action and one not, leave the
// action class undefined.
func TestAmbiguousActionClassIsRefused(t *testing.T) {
	sys := explicit([]arc{{0, 1, "go", 0}, {0, 0, "ask", 0}}, []string{"ask"}, eventually(1))
	sys.Rules[1].Name = "go"
	if r := Run(context.Background(), sys, Options{Fair: model.FairAction}); r.Err == nil || r.Verdict == Pass {
		t.Fatalf("ambiguous class: %s, %v", r.Verdict, r.Err)
	}
	if r := Run(context.Background(), sys, Options{Fair: model.FairProcess}); r.Err != nil {
		t.Fatalf("per process the names do not matter: %v", r.Err)
	}
}

// Termination is "eventually a terminal state": a cycle is a counterexample
// unless fairness forces the way out of it.
func TestLivenessTermination(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 0, "b", 1}, {1, 2, "a", 0}}, nil,
		model.TerminationProp[at]("terminates", "test", ""))
	pin(t, "termination", sys,
		expect{model.FairNone, Fail, "| b/p1→0"},
		expect{model.FairProcess, Pass, ""},
		expect{model.FairAction, Pass, ""})
}

// With Options.Exact the graph is keyed by full encodings, and finds the
// same graph and verdicts.
func TestLivenessExactIndexAgrees(t *testing.T) {
	sys := explicit([]arc{{0, 1, "a", 0}, {0, 2, "c", 0}, {2, 0, "c", 0}, {2, 1, "a", 0}}, nil, eventually(1))
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		a := Run(context.Background(), sys, Options{Fair: f})
		b := Run(context.Background(), sys, Options{Fair: f, Exact: true})
		if a.Props[0].Verdict != b.Props[0].Verdict || a.Liveness.States != b.Liveness.States || a.Liveness.Transitions != b.Liveness.Transitions {
			t.Fatalf("%s: %s/%+v against exact %s/%+v", f, a.Props[0].Verdict, a.Liveness, b.Props[0].Verdict, b.Liveness)
		}
	}
}
