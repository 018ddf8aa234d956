package checker_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/lelann"
)

// A reduced run stores the same states, with the same indices, and reports
// the same figures and traces for any number of workers, and with the exact
// store.
func TestReducedRunsAgreeForAnyWorkerCount(t *testing.T) {
	ll, _ := lelann.New(model.Params{N: 6, IDs: []int{2, 6, 1, 5, 3, 4}})
	for _, sys := range []checker.Target{
		crSystem(t, model.Params{N: 8, IDs: ring.DescendingIDs(8)}),
		crSystem(t, model.Params{N: 5, IDs: []int{3, 1, 5, 2, 4}, Chan: model.Bag}),
		crSystem(t, model.Params{N: 5, IDs: []int{3, 1, 5, 2, 4}, Variant: "raynal-literal", Initiators: []int{0}}),
		checker.Of(ll),
	} {
		base := sys.Check(context.Background(), checker.Options{Workers: 1, Reduce: true, Safety: true})
		if base.Err != nil || !base.Reduced {
			t.Fatalf("%v, reduced %v", base.Err, base.Reduced)
		}
		for _, opt := range []checker.Options{{Workers: 2, Reduce: true, Safety: true}, {Workers: 3, Reduce: true, Safety: true}, {Workers: 2, Reduce: true, Safety: true, Exact: true}} {
			if got, want := summary(sys.Check(context.Background(), opt)), summary(base); got != want {
				t.Fatalf("%+v:\n got %s\nwant %s", opt, got, want)
			}
		}
	}
}

// Settings under which the reduction would be unsound are refused, each
// with a message saying why: liveness properties of a spec without a
// termination measure, or with --exact, unless --safety skips them, and any
// kind of property it does not know.
func TestReductionRefusals(t *testing.T) {
	props := []checker.PropInfo{{Name: "at-most-one-leader", Kind: model.Invariant}}
	live := append(props, checker.PropInfo{Name: "eventually-leader", Kind: model.Eventually})
	for _, c := range []struct {
		opt      checker.Options
		props    []checker.PropInfo
		measured bool
		want     string
	}{
		{checker.Options{Reduce: true, Safety: true, Disk: "/tmp/x"}, props, true, "disk store"},
		{checker.Options{Reduce: true}, live, false, "declares no measure"},
		{checker.Options{Reduce: true, Exact: true}, live, true, "--exact"},
		{checker.Options{Reduce: true, Safety: true}, append(props, checker.PropInfo{Name: "new-kind", Kind: model.Kind(99)}), true, "new-kind"},
	} {
		if err := checker.CanReduce(c.opt, c.props, c.measured); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %q", c.opt, err, c.want)
		}
	}
	for _, c := range []struct {
		opt      checker.Options
		measured bool
	}{{checker.Options{Reduce: true, Safety: true, Exact: true}, false}, {checker.Options{Reduce: true}, true}, {checker.Options{Reduce: true, Safety: true}, false}} {
		if err := checker.CanReduce(c.opt, live, c.measured); err != nil {
			t.Fatalf("%+v, measured %v: refused: %v", c.opt, c.measured, err)
		}
	}
	sys := crSystem(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})
	if r := sys.Check(context.Background(), checker.Options{Reduce: true}); r.Err != nil || r.Liveness == nil || r.Liveness.Method != checker.ByMeasureReduced {
		t.Fatalf("a reduced run with liveness properties: %v, %+v", r.Err, r.Liveness)
	}
	if r := sys.Check(context.Background(), checker.Options{Reduce: true, Safety: true, Disk: t.TempDir()}); r.Err == nil {
		t.Fatal("a reduced run on the disk store was not refused")
	}
}

// A rule without a footprint, or a property that does not say what it
// reads, turns the reduction off, and the run says so.
func TestReductionNotApplicable(t *testing.T) {
	p := model.Params{N: 5, IDs: ring.DescendingIDs(5)}
	noFootprint, _ := changroberts.New(p)
	noFootprint.Rules[0].Footprint = nil
	noReads, _ := changroberts.New(p)
	noReads.Props[1].Reads = nil
	for sys, want := range map[checker.Target]string{
		checker.Of(noFootprint): "n/a for rules without footprints (start)",
		checker.Of(noReads):     "n/a for properties that do not declare what they read (leader-is-max)",
	} {
		r := sys.Check(context.Background(), checker.Options{Reduce: true, Safety: true})
		if r.Reduced || r.ReductionNote != want+": every interleaving explored" || r.States != 489 || r.Verdict != checker.Pass {
			t.Errorf("reduced %v, note %q, %d states, %s", r.Reduced, r.ReductionNote, r.States, r.Verdict)
		}
	}
}

// A measure that does not say what it reads is an observation the
// reduction cannot keep: it is left unmeasured, the run says so, and the
// reduction still applies.
func TestUndeclaredMeasureIsSkippedUnderReduction(t *testing.T) {
	sys, _ := changroberts.New(model.Params{N: 5, IDs: ring.DescendingIDs(5)})
	addUndeclaredMeasure(sys)
	r := checker.Run(context.Background(), sys, checker.Options{Reduce: true, Safety: true})
	if !r.Reduced || !slices.Equal(r.SkippedMeasures, []string{"anything"}) || r.States >= 489 || r.Verdict != checker.Pass {
		t.Fatalf("reduced %v, skipped %v, %d states, %s", r.Reduced, r.SkippedMeasures, r.States, r.Verdict)
	}
	for _, m := range r.Measures {
		if m.Name == "anything" {
			t.Fatal("the undeclared measure was reported")
		}
	}
	if r := checker.Run(context.Background(), sys, checker.Options{Safety: true}); len(r.SkippedMeasures) != 0 {
		t.Fatalf("without reduction, skipped %v", r.SkippedMeasures)
	}
}

func addUndeclaredMeasure[S any](sys *model.System[S]) {
	sys.Measures = append(sys.Measures, model.Measure[S]{Name: "anything", Value: func(*S) int { return 1 }})
}

// Under reduction a liveness property that fails is decided by the measure
// on the reduced graph, with the unreduced run's counterexample (a
// shortest run of the full system, which replays), for any worker count:
// "eventually the last process leads" and "once p1 has lost, the last
// process is elected" on Chang–Roberts, with every arrangement of 4 ids
// (each fails on some of them and holds on others).
func TestReducedMeasureFindsTheFullCounterexample(t *testing.T) {
	for _, ids := range ring.Arrangements(4) {
		sys, err := changroberts.New(model.Params{N: len(ids), IDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		addLastLeads(sys)
		sys.Props = append(sys.Props, model.LeadsToProp("lost-leads-to-last", "mutant", "once p1 has lost, p3 is elected",
			decidedIs(sys, 1, "lost"), decidedIs(sys, 3, "leader")))
		// They read decisions: eventually-leader reads every one.
		for i := len(sys.Props) - 2; i < len(sys.Props); i++ {
			sys.Props[i].Reads = prop(sys, "eventually-leader").Reads
		}
		want := checker.Run(context.Background(), sys, checker.Options{Workers: 1, Continue: true})
		for _, w := range []int{1, 2} {
			got := checker.Run(context.Background(), sys, checker.Options{Workers: w, Reduce: true, Continue: true})
			if got.Err != nil || got.Liveness == nil || got.Liveness.Method != checker.ByMeasureReduced || got.Verdict != want.Verdict {
				t.Fatalf("ids %v, %d workers: %v, %+v, %s (full %s)", ids, w, got.Err, got.Liveness, got.Verdict, want.Verdict)
			}
			for i := range want.Props {
				wp, gp := want.Props[i], got.Props[i]
				if wp.Kind.Liveness() && (wp.Verdict != gp.Verdict || fmt.Sprint(traceActions(wp.Trace)) != fmt.Sprint(traceActions(gp.Trace))) {
					t.Fatalf("ids %v, %d workers: %s reduced %s %v, full %s %v", ids, w, wp.Name, gp.Verdict, traceActions(gp.Trace), wp.Verdict, traceActions(wp.Trace))
				}
			}
		}
	}
}

// prop is sys's property called name.
func prop[S any](sys *model.System[S], name string) *model.Property[S] {
	for i := range sys.Props {
		if sys.Props[i].Name == name {
			return &sys.Props[i]
		}
	}
	panic("no property " + name)
}

// decidedIs is "process p's decision is d", read off the state's variables.
func decidedIs[S any](sys *model.System[S], p int, d string) func(*S) bool {
	v := model.Var{Name: fmt.Sprintf("p%d.decided", p), Value: d}
	return func(s *S) bool { return slices.Contains(sys.Vars(s), v) }
}

// A reduced run survives checkpoints: stopped at every third state count
// and resumed each time, it stores the states, counts the transitions and gives
// the verdicts of an uninterrupted reduced run, liveness included (the
// checkpoint keeps the store's state indices, which the cycle proviso
// reads, and the marks). With -short, on 4 ids only.
func TestReducedRunSurvivesResume(t *testing.T) {
	arrangements := [][]int{{3, 1, 4, 2}, {2, 5, 1, 4, 3}}
	if testing.Short() {
		arrangements = arrangements[:1]
	}
	for _, ids := range arrangements {
		for _, safety := range []bool{false, true} {
			sys, err := changroberts.New(model.Params{N: len(ids), IDs: ids})
			if err != nil {
				t.Fatal(err)
			}
			addLastLeads(sys)
			sys.Props[len(sys.Props)-1].Reads = prop(sys, "eventually-leader").Reads
			opt := checker.Options{Workers: 2, Reduce: true, Safety: safety, Continue: true}
			want := checker.Run(context.Background(), sys, opt)
			opt.Checkpoint, opt.MaxStates = filepath.Join(t.TempDir(), "ck"), 1
			var got checker.Result
			stops := 0
			for ; stops < 1000; stops++ {
				got = checker.Run(context.Background(), sys, opt)
				if got.Err != nil {
					t.Fatalf("ids %v: %v", ids, got.Err)
				}
				if got.Reason == "" {
					break
				}
				opt.Resume, opt.MaxStates = got.Checkpoint != nil, opt.MaxStates+3
			}
			if stops < 2 || !got.Reduced || verdictLine(got) != verdictLine(want) || got.States != want.States || got.Transitions != want.Transitions || got.Terminal != want.Terminal {
				t.Fatalf("ids %v safety %v, %d stops: resumed %s %d/%d, whole %s %d/%d", ids, safety, stops, verdictLine(got), got.States, got.Transitions, verdictLine(want), want.States, want.Transitions)
			}
			if !safety && (got.Liveness == nil || got.Liveness.Method != checker.ByMeasureReduced) {
				t.Fatalf("ids %v: resumed liveness %+v", ids, got.Liveness)
			}
		}
	}
}

// verdictLine renders a run's verdict and every property's.
func verdictLine(r checker.Result) string {
	out := string(r.Verdict)
	for _, p := range r.Props {
		out += " " + p.Name + "=" + string(p.Verdict)
	}
	return out
}
