package checker

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
)

// vacuityK is the counters' bound in the vacuity tests: levels 0..2k.
const vacuityK = 8

// situated is the counters system with one property of each kind whose
// situation can go unmet, each twice: once where the situation arises, at
// level 1 only for the state ones (so that a resume from a later
// checkpoint must remember it), and once where it never does (x0 never
// exceeds k).
func situated() *model.System[counters] {
	first := func(s *counters) bool { return s.x[0]+s.x[1] == 1 }
	beyond := func(s *counters) bool { return s.x[0] > vacuityK }
	done := func(s *counters) bool { return s.x[0] == vacuityK && s.x[1] == vacuityK }
	bounded := func(s *counters) bool { return s.x[0] <= vacuityK }
	byOne := func(b *counters, _ model.Action, a *counters) bool { return a.x[0]+a.x[1] == b.x[0]+b.x[1]+1 }
	return countersSystem(vacuityK,
		model.InvariantProp("inv-met", "test", "x0 ≤ k", bounded).When("no state was one step from the start", first),
		model.InvariantProp("inv-unmet", "test", "x0 ≤ k", bounded).When("x0 never exceeded k", beyond),
		model.StepProp("step-met", "test", "one at a time", byOne).
			WhenStep("p1 never stepped first", func(b *counters, a model.Action, _ *counters) bool { return a.Proc == 1 && b.x[0]+b.x[1] == 0 }),
		model.StepProp("step-unmet", "test", "one at a time", byOne).
			WhenStep("no step took x0 past k", func(_ *counters, _ model.Action, a *counters) bool { return beyond(a) }),
		model.EndProp("end-met", "test", "ends at k, k", done),
		model.EndProp("end-unmet", "test", "ends at k, k", done).When("no terminal state had x0 = 0", func(s *counters) bool { return s.x[0] == 0 }),
		model.LeadsToProp("leads-met", "test", "first leads to done", first, done),
		model.LeadsToProp("leads-unmet", "test", "beyond leads to done", beyond, done).SayingUnmet("x0 never exceeded k"),
		model.WitnessProp("witness", "test", "x0 reaches k", func(s *counters) bool { return s.x[0] == vacuityK }),
		model.EventuallyProp("eventually", "test", "x1 reaches k", func(s *counters) bool { return s.x[1] == vacuityK }),
	)
}

// vacuityOf lists a run's vacuous properties with what never happened.
func vacuityOf(r *Result) string {
	var out []string
	for _, p := range r.Props {
		if p.Vacuous {
			out = append(out, p.Name+": "+p.Unmet+" ("+string(p.Verdict)+")")
		} else if p.Unmet != "" {
			out = append(out, p.Name+": unmet but not vacuous")
		}
	}
	return strings.Join(out, "; ")
}

const wantVacuous = "inv-unmet: x0 never exceeded k (pass); step-unmet: no step took x0 past k (pass); " +
	"end-unmet: no terminal state had x0 = 0 (pass); leads-unmet: x0 never exceeded k (pass)"

// Each kind whose situation can go unmet is reported vacuous exactly when
// it did, saying what never happened; a witness and an eventually
// property never are, nor the deadlock property, whose terminal state the
// run reaches.
func TestVacuityOfEveryKind(t *testing.T) {
	r := Run(context.Background(), situated(), Options{Workers: 1})
	if r.Err != nil || r.Verdict != Pass {
		t.Fatalf("verdict %s, err %v", r.Verdict, r.Err)
	}
	if got := vacuityOf(&r); got != wantVacuous {
		t.Fatalf("vacuous:\n got %s\nwant %s", got, wantVacuous)
	}
}

// The situations seen are the same for any number of workers, in memory,
// exact and on disk, and for a run resumed from a checkpoint taken after
// the only level where the met ones arise.
func TestVacuityAgreesAcrossWorkersStoresAndResume(t *testing.T) {
	for name, opt := range map[string]Options{
		"2 workers":       {Workers: 2},
		"exact":           {Exact: true, Workers: 2},
		"disk":            {Disk: t.TempDir(), Workers: 1},
		"disk, 2 workers": {Disk: t.TempDir(), Workers: 2},
	} {
		r := Run(context.Background(), situated(), opt)
		if got := vacuityOf(&r); r.Err != nil || got != wantVacuous {
			t.Fatalf("%s: %v, vacuous %s", name, r.Err, got)
		}
	}
	for _, disk := range []bool{false, true} {
		dir := t.TempDir()
		opt := Options{Workers: 2, Checkpoint: filepath.Join(dir, "ckpt")}
		if disk {
			opt.Disk = filepath.Join(dir, "store")
		}
		ctx, cancel := context.WithCancel(context.Background())
		first := opt
		first.ProgressEvery = 1
		first.Progress = func(p Progress) {
			if p.Depth >= 6 {
				cancel()
			}
		}
		stopped := Run(ctx, situated(), first)
		cancel()
		if stopped.Reason != "interrupted" || stopped.Checkpoint == nil || stopped.Checkpoint.Depth < 3 {
			t.Fatalf("disk=%v: the interrupted run: %s, %v, checkpoint %+v", disk, stopped.Reason, stopped.Err, stopped.Checkpoint)
		}
		opt.Resume = true
		r := Run(context.Background(), situated(), opt)
		if got := vacuityOf(&r); r.Err != nil || r.Verdict != Pass || got != wantVacuous {
			t.Fatalf("disk=%v: resumed: %s, %v, vacuous %s", disk, r.Verdict, r.Err, got)
		}
	}
}

// FailVacuous fails every vacuous pass, and the run; the failure reported
// is a vacuous one, there being no other. A property that failed for real
// is reported first.
func TestFailVacuous(t *testing.T) {
	r := Run(context.Background(), situated(), Options{Workers: 1, FailVacuous: true})
	want := strings.ReplaceAll(wantVacuous, "(pass)", "(fail)")
	if got := vacuityOf(&r); r.Verdict != Fail || got != want {
		t.Fatalf("verdict %s, vacuous %s", r.Verdict, got)
	}
	if f := r.Failure(); f == nil || !f.Vacuous || f.Trace != nil {
		t.Fatalf("failure %+v", f)
	}
	if prop(&r, "inv-met").Verdict != Pass || prop(&r, "witness").Verdict != Pass {
		t.Fatal("a property put to the test failed")
	}
	sys := situated()
	sys.Props = append(sys.Props, model.InvariantProp("x0-below-3", "test", "x0 < 3", func(s *counters) bool { return s.x[0] < 3 }))
	r = Run(context.Background(), sys, Options{Workers: 1, FailVacuous: true, Continue: true})
	if f := r.Failure(); r.Verdict != Fail || f == nil || f.Name != "x0-below-3" {
		t.Fatalf("verdict %s, failure %+v", r.Verdict, f)
	}
	if m := MeaningOf(Info{Spec: "counters"}, Options{FailVacuous: true}); !m.FailVacuous {
		t.Fatal("--fail-vacuous is not part of the run's meaning")
	}
}

// A checkpoint records --fail-vacuous: a resume without it is refused,
// naming it.
func TestResumeRefusesAnotherFailVacuous(t *testing.T) {
	dir := t.TempDir()
	if r := Run(context.Background(), situated(), Options{Workers: 1, Checkpoint: dir, FailVacuous: true}); r.Err != nil {
		t.Fatal(r.Err)
	}
	r := Run(context.Background(), situated(), Options{Workers: 1, Checkpoint: dir, Resume: true})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "--fail-vacuous: the checkpoint has on, this run has off") {
		t.Fatalf("resume without --fail-vacuous: %v", r.Err)
	}
}

// A run that never stops passes the deadlock property of a spec with no
// proper end, and not vacuously: its claim is that no terminal state is
// reached. An end property of that run is vacuous.
func TestDeadlockWithoutEndsIsNeverVacuous(t *testing.T) {
	sys := ringOfJumps(3)
	sys.Ends = nil
	sys.Props = append(sys.Props, model.EndProp("end", "test", "anything", func(*counters) bool { return true }))
	r := Run(context.Background(), sys, Options{Workers: 1, Safety: true})
	if r.Err != nil || r.Verdict != Pass || r.Terminal != 0 {
		t.Fatalf("verdict %s, %d terminal, err %v", r.Verdict, r.Terminal, r.Err)
	}
	if d, e := prop(&r, model.Deadlock), prop(&r, "end"); d.Vacuous || !e.Vacuous || e.Unmet != "no terminal state was reached" {
		t.Fatalf("deadlock %+v, end %+v", d, e)
	}
}

// A situation declared where the checker cannot look for it is refused
// before the run starts.
func TestMalformedSituationsAreRefused(t *testing.T) {
	yes := func(*counters) bool { return true }
	for _, p := range []model.Property[counters]{
		model.WitnessProp("w", "test", "doc", yes).When("never", yes),
		model.InvariantProp("i", "test", "doc", yes).WhenStep("never", func(*counters, model.Action, *counters) bool { return true }),
		model.InvariantProp("i", "test", "doc", yes).When("", yes),
	} {
		r := Run(context.Background(), countersSystem(2, p), Options{Workers: 1})
		if r.Err == nil || r.Verdict != "" {
			t.Fatalf("%s: verdict %s, err %v", p.Name, r.Verdict, r.Err)
		}
	}
}

// A run stopped at a violation says what each safety property it did not
// decide held on: the states reached, the transitions explored, the
// terminal states found; the others have nothing to show.
func TestStoppedRunSaysWhatPropertiesHeldOn(t *testing.T) {
	sys := situated()
	sys.Props = append(sys.Props, model.InvariantProp("x0-below-3", "test", "x0 < 3", func(s *counters) bool { return s.x[0] < 3 }))
	r := Run(context.Background(), sys, Options{Workers: 1})
	if !r.StoppedAtViolation || r.Verdict != Fail {
		t.Fatalf("stopped %v, verdict %s", r.StoppedAtViolation, r.Verdict)
	}
	var got []string
	for _, p := range r.Props {
		if p.Verdict == NotChecked {
			got = append(got, p.Name+": "+p.HeldOn)
		}
	}
	want := []string{
		"inv-met: the 10 states reached", "inv-unmet: the 10 states reached",
		"step-met: the 12 transitions explored", "step-unmet: the 12 transitions explored",
		"end-met: the terminal states found, none so far", "end-unmet: the terminal states found, none so far",
		"leads-met: ", "leads-unmet: ", "witness: ", "eventually: ", "deadlock: the terminal states found, none so far",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("held on:\n got %q\nwant %q", got, want)
	}
}

// toggleAndSet is the system of TestCycleProvisoFindsTheIgnoredAction,
// process 0 toggling x (s[0]) for ever, process 1 setting y (s[1]) once,
// with properties of y, each reading y, and situations subject.
func toggleAndSet(subject func(s *porToy) bool, step func(b *porToy, a model.Action, c *porToy) bool) *model.System[porToy] {
	readY := func(buf []byte, s *porToy) []byte { return append(buf, s[1]) }
	return porToySystem([]model.Rule[porToy]{
		{Name: "toggle", Guard: onlyAt(0, func(*porToy) bool { return true }), Do: func(s *porToy, _, _ int) bool { s[0] ^= 1; return true },
			Footprint: local},
		{Name: "set", Guard: onlyAt(1, func(s *porToy) bool { return s[1] == 0 }), Do: func(s *porToy, _, _ int) bool { s[1] = 1; return true },
			Footprint: local},
	}, []model.Property[porToy]{
		model.InvariantProp("y-small", "test", "y ≤ 1", func(s *porToy) bool { return s[1] <= 1 }).Reading(readY).When("y was never set", subject),
		model.InvariantProp("y-not-two", "test", "y ≤ 1", func(s *porToy) bool { return s[1] <= 1 }).Reading(readY).
			When("y never reached 2", func(s *porToy) bool { return s[1] == 2 }),
		model.StepProp("y-rises", "test", "y never falls", func(b *porToy, _ model.Action, a *porToy) bool { return a[1] >= b[1] }).
			Reading(readY).WhenStep("y never rose", step),
	}, nil, porToy{})
}

// Partial-order reduction keeps the situations of properties that read
// only what they declare: the reduced run reports the full run's
// vacuity. por.CheckFootprints refuses a situation that reads more (x,
// which no property declares), or a step situation met by a step that
// changes nothing the property reads.
func TestReductionKeepsSituations(t *testing.T) {
	setY := func(s *porToy) bool { return s[1] == 1 }
	rose := func(b *porToy, _ model.Action, a *porToy) bool { return a[1] > b[1] }
	sys := toggleAndSet(setY, rose)
	if err := por.CheckFootprints(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	full := Run(context.Background(), sys, Options{Workers: 1})
	red := Run(context.Background(), sys, Options{Workers: 1, Reduce: true, Safety: true})
	const want = "y-not-two: y never reached 2 (pass); deadlock: no terminal state was reached (pass)"
	if !red.Reduced || red.Verdict != Pass || vacuityOf(&full) != want || vacuityOf(&red) != want {
		t.Fatalf("full: %s; reduced (%v): %s, %s", vacuityOf(&full), red.Reduced, red.Verdict, vacuityOf(&red))
	}
	for name, bad := range map[string]*model.System[porToy]{
		"reads x":         toggleAndSet(func(s *porToy) bool { return s[0] == 1 }, rose),
		"met by a toggle": toggleAndSet(setY, func(_ *porToy, a model.Action, _ *porToy) bool { return a.Rule == 0 }),
	} {
		if err := por.CheckFootprints(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "situation") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
