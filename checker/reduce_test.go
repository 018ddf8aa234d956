package checker_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"mc/checker"
	"mc/model"
	"mc/ring"
	"mc/specs/changroberts"
	"mc/specs/lelann"
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
// with a message saying why: liveness properties unless --safety skips
// them, and any kind of property it does not know.
func TestReductionRefusals(t *testing.T) {
	props := []checker.PropInfo{{Name: "at-most-one-leader", Kind: model.Invariant}}
	for _, c := range []struct {
		opt   checker.Options
		props []checker.PropInfo
		want  string
	}{
		{checker.Options{Reduce: true, Safety: true, Disk: "/tmp/x"}, props, "disk store"},
		{checker.Options{Reduce: true, Safety: true, Checkpoint: "/tmp/x"}, props, "checkpointed"},
		{checker.Options{Reduce: true}, append(props, checker.PropInfo{Name: "eventually-leader", Kind: model.Eventually}), "add --safety"},
		{checker.Options{Reduce: true, Safety: true}, append(props, checker.PropInfo{Name: "new-kind", Kind: model.Kind(99)}), "new-kind"},
	} {
		if err := checker.CanReduce(c.opt, c.props); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %q", c.opt, err, c.want)
		}
	}
	if err := checker.CanReduce(checker.Options{Reduce: true, Safety: true, Exact: true}, props); err != nil {
		t.Fatalf("exact store refused: %v", err)
	}
	sys := crSystem(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})
	if r := sys.Check(context.Background(), checker.Options{Reduce: true}); r.Err == nil || !strings.Contains(r.Err.Error(), "eventually-leader") {
		t.Fatalf("a reduced run with liveness properties: %v", r.Err)
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
