package checker

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ringcheck/mc/model"
)

// counters is a synthetic system with a known state graph: two processes each
// count from 0 to k, so there are (k+1)² states, 2k(k+1) transitions, depth
// 2k and one terminal state, its proper end.
type counters struct{ x []int }

func countersSystem(k int, props ...model.Property[counters]) *model.System[counters] {
	return &model.System[counters]{
		Spec: "counters", Procs: 2,
		Init: []counters{{x: []int{0, 0}}},
		Rules: []model.Rule[counters]{{
			Name:  "inc",
			Guard: func(s *counters, p int) bool { return s.x[p] < k },
			Do:    func(s *counters, p, _ int) bool { s.x[p]++; return true },
		}},
		Props: props,
		Ends:  func(s *counters) bool { return s.x[0] == k && s.x[1] == k },
		Copy:  func(d, s *counters) { d.x = append(d.x[:0], s.x...) },
		Encode: func(b []byte, s *counters) []byte {
			return model.AppendUint(model.AppendUint(b, uint64(s.x[0])), uint64(s.x[1]))
		},
		Decode: func(b []byte, s *counters) error {
			d := model.NewDecoder(b)
			s.x = append(s.x[:0], d.Int(), d.Int())
			return d.Finish()
		},
		Vars: func(s *counters) []model.Var {
			return []model.Var{{Name: "x0", Value: fmt.Sprint(s.x[0])}, {Name: "x1", Value: fmt.Sprint(s.x[1])}}
		},
	}
}

func prop(r *Result, name string) PropResult {
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	panic("no property " + name)
}

func TestCountsOfAKnownGraph(t *testing.T) {
	r := Run(context.Background(), countersSystem(3), Options{})
	if r.Err != nil || r.Verdict != Pass {
		t.Fatalf("verdict %s, err %v", r.Verdict, r.Err)
	}
	if r.States != 16 || r.Transitions != 24 || r.Depth != 6 || r.Terminal != 1 {
		t.Fatalf("states %d transitions %d depth %d terminal %d, want 16 24 6 1", r.States, r.Transitions, r.Depth, r.Terminal)
	}
}

func TestInvariantViolationHasAShortestTraceThatReplays(t *testing.T) {
	sys := countersSystem(3, model.InvariantProp("sum-below-3", "test", "x0+x1 < 3",
		func(s *counters) bool { return s.x[0]+s.x[1] < 3 }))
	r := Run(context.Background(), sys, Options{})
	p := prop(&r, "sum-below-3")
	if r.Verdict != Fail || p.Verdict != Fail || p.Trace == nil {
		t.Fatalf("verdict %s / %s, trace %v", r.Verdict, p.Verdict, p.Trace)
	}
	if len(p.Trace.Steps) != 3 {
		t.Fatalf("trace has %d steps; the shortest violation has 3", len(p.Trace.Steps))
	}
	var actions []model.Action
	for _, s := range p.Trace.Steps {
		actions = append(actions, s.Action)
	}
	end, err := Replay(sys, p.Trace.Init, actions)
	if err != nil || end.x[0]+end.x[1] != 3 {
		t.Fatalf("replay ends in %v (%v), want a state with sum 3", end.x, err)
	}
	if r.Failure().Name != "sum-below-3" {
		t.Fatalf("Failure() = %s", r.Failure().Name)
	}
	if first := p.Trace.Steps[0]; first.Label != "inc p0" || len(first.Changes) != 1 || first.Changes[0].Name != "x0" {
		t.Fatalf("first step %+v: want label 'inc p0' changing only x0", first)
	}
}

func TestReplayRejectsAnActionThatIsNotEnabled(t *testing.T) {
	sys := countersSystem(1)
	bad := []model.Action{{Rule: 0, Proc: 0}, {Rule: 0, Proc: 0}}
	if _, err := Replay(sys, 0, bad); err == nil {
		t.Fatal("replay took inc p0 twice although x0 stops at 1")
	}
}

func TestStepPropertyFailsOnTheTransition(t *testing.T) {
	sys := countersSystem(2, model.StepProp("x0-never-2", "test", "x0 never goes from 1 to 2",
		func(b *counters, _ model.Action, a *counters) bool { return !(b.x[0] == 1 && a.x[0] == 2) }))
	r := Run(context.Background(), sys, Options{})
	p := prop(&r, "x0-never-2")
	if p.Verdict != Fail || len(p.Trace.Steps) != 2 || p.Trace.Steps[1].Label != "inc p0" {
		t.Fatalf("step property: %s with trace %+v", p.Verdict, p.Trace)
	}
}

func TestEndPropertyFailureIsADeadlock(t *testing.T) {
	sys := countersSystem(2, model.EndProp("ends-at-zero", "test", "x0 = 0 at the end",
		func(s *counters) bool { return s.x[0] == 0 }))
	r := Run(context.Background(), sys, Options{})
	p := prop(&r, "ends-at-zero")
	if p.Verdict != Fail || !p.Trace.Deadlock || len(p.Trace.Steps) != 4 {
		t.Fatalf("end property: %s, trace %+v", p.Verdict, p.Trace)
	}
}

func TestWitnessPassesWithItsRunAndFailsWhenUnreachable(t *testing.T) {
	sys := countersSystem(2,
		model.WitnessProp("x1-reaches-2", "test", "", func(s *counters) bool { return s.x[1] == 2 }),
		model.WitnessProp("x1-reaches-3", "test", "", func(s *counters) bool { return s.x[1] == 3 }))
	r := Run(context.Background(), sys, Options{})
	if p := prop(&r, "x1-reaches-2"); p.Verdict != Pass || len(p.Trace.Steps) != 2 {
		t.Fatalf("reachable witness: %s, trace %+v", p.Verdict, p.Trace)
	}
	if p := prop(&r, "x1-reaches-3"); p.Verdict != Fail || p.Trace != nil {
		t.Fatalf("unreachable witness: %s", p.Verdict)
	}
	if r.Verdict != Fail {
		t.Fatalf("overall verdict %s with an unreachable witness", r.Verdict)
	}
}

func TestLimitsMakeTheRunIncompleteNeverPass(t *testing.T) {
	sys := countersSystem(3,
		model.InvariantProp("true", "test", "", func(*counters) bool { return true }),
		model.WitnessProp("never", "test", "", func(*counters) bool { return false }))
	r := Run(context.Background(), sys, Options{MaxStates: 5})
	if r.Verdict != Incomplete || r.States != 5 || r.Reason != "state limit 5 reached" {
		t.Fatalf("max-states 5: verdict %s, %d states, reason %q", r.Verdict, r.States, r.Reason)
	}
	if prop(&r, "true").Verdict != Incomplete || prop(&r, "never").Verdict != Incomplete {
		t.Fatal("an unsettled property was given a verdict in an incomplete run")
	}
	exact := Run(context.Background(), sys, Options{MaxStates: 16})
	if exact.Reason != "" || exact.States != 16 {
		t.Fatalf("a limit equal to the state count stopped the run: %q", exact.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = Run(ctx, sys, Options{})
	if r.Verdict != Incomplete || r.Reason != "interrupted" {
		t.Fatalf("cancelled run: verdict %s, reason %q", r.Verdict, r.Reason)
	}
}

func TestBlockedActionsAreNotEnabled(t *testing.T) {
	sys := countersSystem(2)
	sys.Rules[0].Do = func(s *counters, p, _ int) bool { s.x[p]++; return p == 0 }
	r := Run(context.Background(), sys, Options{})
	if r.States != 3 || r.Transitions != 2 || r.Terminal != 1 {
		t.Fatalf("with p1 always blocked: %d states %d transitions %d terminal, want 3 2 1", r.States, r.Transitions, r.Terminal)
	}
}

func TestUndecodableStateIsAnInternalError(t *testing.T) {
	sys := countersSystem(2)
	sys.Decode = func([]byte, *counters) error { return errors.New("boom") }
	r := Run(context.Background(), sys, Options{})
	if r.Err == nil || r.Verdict == Pass {
		t.Fatalf("a decode failure gave verdict %s, err %v", r.Verdict, r.Err)
	}
}

// The same figures and the same traces for any number of workers, whether
// the run stops at the first violation or goes on to the end.
func TestWorkersDoNotChangeTheOutcome(t *testing.T) {
	sys := countersSystem(60,
		model.InvariantProp("sum-below-90", "test", "", func(s *counters) bool { return s.x[0]+s.x[1] < 90 }),
		model.StepProp("x0-never-50", "test", "", func(b *counters, _ model.Action, a *counters) bool { return a.x[0] != 50 }))
	for _, cont := range []bool{false, true} {
		base := Run(context.Background(), sys, Options{Workers: 1, Continue: cont})
		if base.Verdict != Fail || base.StoppedAtViolation == cont {
			t.Fatalf("continue %v: verdict %s, stopped at the violation %v", cont, base.Verdict, base.StoppedAtViolation)
		}
		for _, w := range []int{2, 3, 8} {
			r := Run(context.Background(), sys, Options{Workers: w, Continue: cont})
			if r.States != base.States || r.Transitions != base.Transitions || r.Depth != base.Depth || r.Terminal != base.Terminal {
				t.Fatalf("continue %v, %d workers: %d/%d/%d/%d, one worker: %d/%d/%d/%d", cont, w, r.States, r.Transitions, r.Depth, r.Terminal,
					base.States, base.Transitions, base.Depth, base.Terminal)
			}
			for i := range r.Props {
				if r.Props[i].Verdict != base.Props[i].Verdict || fmt.Sprint(r.Props[i].Trace) != fmt.Sprint(base.Props[i].Trace) {
					t.Fatalf("continue %v, %d workers: %s differs from one worker's", cont, w, r.Props[i].Name)
				}
			}
		}
		exact := Run(context.Background(), sys, Options{Exact: true, Continue: cont})
		if exact.States != base.States || exact.Transitions != base.Transitions {
			t.Fatalf("continue %v, exact store: %d states %d transitions, fingerprints: %d %d", cont, exact.States, exact.Transitions, base.States, base.Transitions)
		}
	}
}

func TestProgressIsReported(t *testing.T) {
	var got []Progress
	opt := Options{ProgressEvery: time.Nanosecond, Progress: func(p Progress) { got = append(got, p) }}
	Run(context.Background(), countersSystem(40), opt)
	if len(got) == 0 || got[len(got)-1].States == 0 {
		t.Fatalf("progress reports: %+v", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].States < got[i-1].States || got[i].Depth < got[i-1].Depth {
			t.Fatalf("progress went backwards: %+v then %+v", got[i-1], got[i])
		}
	}
}

// A measure's maximum over all reachable states comes with a shortest run to
// a state that reaches it.
func TestMeasureReportsTheMaximumWithAShortestRun(t *testing.T) {
	sys := countersSystem(3)
	sys.Measures = []model.Measure[counters]{{Name: "x0", Ref: "test", Doc: "the first counter",
		Value: func(s *counters) int { return s.x[0] }}}
	r := Run(context.Background(), sys, Options{})
	if len(r.Measures) != 1 {
		t.Fatalf("%d measure results, want 1", len(r.Measures))
	}
	m := r.Measures[0]
	if m.Max != 3 || !m.Complete || m.Trace == nil || len(m.Trace.Steps) != 3 {
		t.Fatalf("measure %+v: want max 3 over a complete run, reached in 3 steps", m)
	}
	for _, s := range m.Trace.Steps {
		if s.Label != "inc p0" {
			t.Fatalf("run to the maximum takes %q; the shortest takes only inc p0", s.Label)
		}
	}
	r = Run(context.Background(), sys, Options{MaxStates: 3})
	if m := r.Measures[0]; m.Complete || m.Max != 1 {
		t.Fatalf("state limit 3: measure %+v, want max 1 and not complete", m)
	}
}
