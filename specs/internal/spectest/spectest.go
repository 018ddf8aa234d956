// Package spectest holds what the spec packages' tests share: build a
// system and explore it, look up a property's result, read a trace, measure
// a ghost over the terminal states, and check ghost erasure.
package spectest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
)

// Build builds the system for p with build; an error fails the test.
func Build[S any](t testing.TB, build func(model.Params) (*model.System[S], error), p model.Params) *model.System[S] {
	t.Helper()
	sys, err := build(p)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// Check builds the system for p with build and explores it fully; a build
// error or an internal error fails the test.
func Check[S any](t testing.TB, build func(model.Params) (*model.System[S], error), p model.Params) checker.Result {
	t.Helper()
	return Run(t, Build(t, build, p), checker.Options{})
}

// Run explores sys within opt, checking every property to the end
// (Options.Continue): the specs' tests pin each property's verdict, not
// where a run that stops at the first violation would stop. An internal
// error fails the test.
func Run[S any](t testing.TB, sys *model.System[S], opt checker.Options) checker.Result {
	t.Helper()
	opt.Continue = true
	r := checker.Run(context.Background(), sys, opt)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r
}

// Prop is the result of the property called name; a missing one fails the
// test.
func Prop(t testing.TB, r *checker.Result, name string) checker.PropResult {
	t.Helper()
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("%s has no property %s", r.Spec, name)
	return checker.PropResult{}
}

// Measure is the maximum of the measure called name over a complete run; a
// missing measure or an incomplete run fails the test.
func Measure(t testing.TB, r *checker.Result, name string) int {
	t.Helper()
	for _, m := range r.Measures {
		if m.Name == name {
			if !m.Complete {
				t.Fatalf("%s: measure %s is only a lower bound (the run was incomplete)", r.Spec, name)
			}
			return m.Max
		}
	}
	t.Fatalf("%s has no measure %s", r.Spec, name)
	return 0
}

// Labels renders a trace's actions, one per line.
func Labels(tr *checker.Trace) string { return strings.Join(StepLabels(tr.Steps), "\n") }

// StepLabels lists the actions of steps, such as a lasso's loop.
func StepLabels(steps []checker.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Label
	}
	return out
}

// Actions lists the actions of steps, for checker.Replay.
func Actions(steps []checker.Step) []model.Action {
	out := make([]model.Action, len(steps))
	for i, s := range steps {
		out[i] = s.Action
	}
	return out
}

// TraceIs fails the test unless the trace's actions are want, one per line.
func TraceIs(t testing.TB, tr *checker.Trace, want string) {
	t.Helper()
	if got := Labels(tr); got != want {
		t.Fatalf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// Range is the least and greatest value a measure took.
type Range struct {
	Lo, Hi int
	// Seen counts the states measured.
	Seen int
	// mu guards the fields while the checker's workers, which evaluate
	// end properties in parallel, record values.
	mu sync.Mutex
}

// MeasureEnds adds to sys an end property that always holds and records
// f over every terminal state the checker reaches. Read the range once the
// run is over.
func MeasureEnds[S any](sys *model.System[S], f func(s *S) int) *Range {
	r := &Range{}
	sys.Props = append(sys.Props, model.EndProp("measure", "test", "records a measure over the terminal states",
		func(s *S) bool {
			v := f(s)
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.Seen == 0 || v < r.Lo {
				r.Lo = v
			}
			if r.Seen == 0 || v > r.Hi {
				r.Hi = v
			}
			r.Seen++
			return true
		}))
	return r
}

// Erasure checks, for each of ps, that the system built with claims on
// erases onto the one built with claims off (checker.CheckErasure).
func Erasure[S any](t *testing.T, build func(model.Params) (*model.System[S], error), ps ...model.Params) {
	t.Helper()
	for _, p := range ps {
		plain, err := build(p)
		if err != nil {
			t.Fatal(err)
		}
		p.Claims = true
		ghosted, err := build(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := checker.CheckErasure(context.Background(), ghosted, plain); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
}

// Footprints checks, for each of ps, that the rule footprints and the
// properties' Reads of the system built for it tell the truth on every
// reachable state (por.CheckFootprints): what partial-order reduction
// relies on.
func Footprints[S any](t *testing.T, build func(model.Params) (*model.System[S], error), ps ...model.Params) {
	t.Helper()
	for _, p := range ps {
		if err := por.CheckFootprints(context.Background(), Build(t, build, p)); err != nil {
			t.Fatalf("%s variant %s: %v", p.String(), p.Variant, err)
		}
	}
}

// SameVerdicts runs tg without and with partial-order reduction and fails
// the test unless the reduced run gives every property the same verdict,
// reaches exactly as many terminal states and stores no more states; what
// names tg in the message. Liveness is left out, as --por needs, unless tg
// declares a termination measure: then the reduced run must decide it by
// the measure on the reduced graph (or, if a transition breaks the
// measure, on the state graph), and give each liveness property the full
// run's counterexample, which must replay as a fair one. It returns both
// results.
func SameVerdicts(t testing.TB, tg checker.Target, what string) (full, reduced checker.Result) {
	t.Helper()
	full, reduced, _ = SameVerdictsWithin(t, tg, what, 0)
	return full, reduced
}

// SameVerdictsWithin is SameVerdicts for a full run of at most limit
// states (0: no limit). It reports false, comparing nothing, when the full
// run needs more.
func SameVerdictsWithin(t testing.TB, tg checker.Target, what string, limit int64) (full, reduced checker.Result, ok bool) {
	t.Helper()
	// Both check every property to the end: where a run stops at the
	// first violation depends on the states it stores.
	safety := !tg.HasTermination()
	full = tg.Check(context.Background(), checker.Options{Workers: 1, Safety: safety, MaxStates: limit, Continue: true})
	if limit > 0 && full.Err == nil && full.Reason != "" { // stopped at the limit
		return full, reduced, false
	}
	reduced = tg.Check(context.Background(), checker.Options{Workers: 1, Reduce: true, Safety: safety, Continue: true})
	if full.Err != nil || reduced.Err != nil {
		t.Fatalf("%s: %v / %v", what, full.Err, reduced.Err)
	}
	if Verdicts(full) != Verdicts(reduced) || full.Terminal != reduced.Terminal || reduced.States > full.States {
		t.Fatalf("%s:\nfull    %s, %d states, %d terminal\nreduced %s, %d states, %d terminal",
			what, Verdicts(full), full.States, full.Terminal, Verdicts(reduced), reduced.States, reduced.Terminal)
	}
	if !safety {
		sameLiveness(t, tg, what, &full, &reduced)
	}
	return full, reduced, true
}

// sameLiveness checks a reduced run's liveness against the full run's:
// decided by the measure on the reduced graph where the reduction applies
// and the measure held, each failure with the full run's counterexample,
// which replays as a fair one.
func sameLiveness(t testing.TB, tg checker.Target, what string, full, reduced *checker.Result) {
	t.Helper()
	want := checker.ByMeasureReduced
	switch {
	case !reduced.Reduced:
		want = checker.ByMeasure
	case reduced.WrongMeasure != nil:
		want = checker.ByGraph
	}
	if reduced.Liveness == nil || reduced.Liveness.Method != want {
		t.Fatalf("%s: reduced liveness %+v, want decided by %s", what, reduced.Liveness, want)
	}
	for i, p := range reduced.Props {
		if p.Trace == nil || !p.Kind.Liveness() {
			continue
		}
		if got, w := traceLabels(p.Trace), traceLabels(full.Props[i].Trace); got != w {
			t.Fatalf("%s: %s's counterexample, reduced %s, full %s", what, p.Name, got, w)
		}
		loop := -1
		if p.Trace.LoopStart != nil {
			loop = *p.Trace.LoopStart
		}
		if err := tg.VerifyLasso(p.Name, reduced.Liveness.Fairness, p.Trace.Init, Actions(p.Trace.Steps), loop); err != nil {
			t.Fatalf("%s: %s's counterexample under reduction does not replay: %v", what, p.Name, err)
		}
	}
}

// traceLabels lists a trace's steps.
func traceLabels(tr *checker.Trace) string {
	if tr == nil {
		return "none"
	}
	var b strings.Builder
	for _, s := range tr.Steps {
		b.WriteString(s.Label + "; ")
	}
	return b.String()
}

// Verdicts renders a run's verdict and every property's, in order.
func Verdicts(r checker.Result) string {
	var b strings.Builder
	b.WriteString(string(r.Verdict))
	for _, p := range r.Props {
		b.WriteString(" " + p.Name + "=" + string(p.Verdict))
	}
	return b.String()
}

// FailsReduced checks that sys, run with partial-order reduction (liveness
// left out), fails the property called name, as a seeded bug must: with a
// trace that replays (none for a witness, which fails for want of a
// state). The trace need not be the shortest.
func FailsReduced[S any](t testing.TB, sys *model.System[S], name string) checker.PropResult {
	t.Helper()
	r := Run(t, sys, checker.Options{Reduce: true, Safety: true})
	pr := Prop(t, &r, name)
	if !r.Reduced || pr.Verdict != checker.Fail {
		t.Fatalf("reduced (%v): %s %s; the bug should break it", r.Reduced, name, pr.Verdict)
	}
	if pr.Kind == model.Witness {
		return pr
	}
	if pr.Trace == nil {
		t.Fatalf("reduced: %s fails without a trace", name)
	}
	if _, err := checker.Replay(sys, pr.Trace.Init, Actions(pr.Trace.Steps)); err != nil {
		t.Fatalf("reduced: the trace of %s does not replay: %v", name, err)
	}
	return pr
}
