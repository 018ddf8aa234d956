package checker

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/changroberts"
)

// withDeadRule is countersSystem(k) with a second rule whose guard is never
// true: a mis-parameterised model, which coverage must flag.
func withDeadRule(k int) *model.System[counters] {
	sys := countersSystem(k)
	sys.Rules = append(sys.Rules, model.Rule[counters]{
		Name:  "dec",
		Guard: func(s *counters, p int) bool { return s.x[p] < 0 },
		Do:    func(s *counters, p, _ int) bool { s.x[p]--; return true },
	})
	return sys
}

func coverageText(c *Coverage) string {
	if c == nil {
		return "<nil>"
	}
	var b strings.Builder
	for _, r := range c.Rules {
		fmt.Fprintf(&b, "%s %d/%d", r.Rule, r.Fired, r.New)
		for _, p := range r.Procs {
			fmt.Fprintf(&b, " p%d %d/%d", p.Proc, p.Fired, p.New)
		}
		b.WriteString("; ")
	}
	return b.String()
}

// The counters' graph: inc fires 24 times, 12 at each process, and finds
// the 15 states other than the initial one. A level lists its states in
// decreasing x0 (p0's successor of a state is admitted before p1's), so a
// state (a, b) with b > 0 is first reached from (a, b-1), by p1 (12 of
// them), and p0 finds (1,0), (2,0) and (3,0). The rule that is never
// enabled is flagged.
func TestCoverageCountsAndFlagsARuleThatNeverFired(t *testing.T) {
	r := Run(context.Background(), withDeadRule(3), Options{Coverage: true})
	if r.Err != nil || r.Verdict != Pass {
		t.Fatalf("verdict %s, err %v", r.Verdict, r.Err)
	}
	if got, want := coverageText(r.Coverage), "inc 24/15 p0 12/3 p1 12/12; dec 0/0 p0 0/0 p1 0/0; "; got != want {
		t.Fatalf("coverage %s, want %s", got, want)
	}
	if got := fmt.Sprint(r.Coverage.NeverFired()); got != "[dec]" {
		t.Fatalf("never fired: %s, want [dec]", got)
	}
	if off := Run(context.Background(), withDeadRule(3), Options{}); off.Coverage != nil {
		t.Fatal("coverage reported without Options.Coverage")
	}
}

// The counts are the same for any number of workers, either store and a
// run resumed from a checkpoint, and add up to the run's transitions and
// its states other than the initial ones.
func TestCoverageAgreesAcrossWorkersStoresAndResume(t *testing.T) {
	sys := countersSystem(60)
	base := Run(context.Background(), sys, Options{Coverage: true, Workers: 1})
	want := coverageText(base.Coverage)
	var fired, found int64
	for _, r := range base.Coverage.Rules {
		fired, found = fired+r.Fired, found+r.New
	}
	if fired != base.Transitions || found != base.States-1 {
		t.Fatalf("fired %d, found %d; transitions %d, states %d", fired, found, base.Transitions, base.States)
	}
	for name, opt := range map[string]Options{
		"2 workers":       {Workers: 2},
		"disk":            {Disk: t.TempDir(), Workers: 1},
		"disk, 2 workers": {Disk: t.TempDir(), Workers: 2},
	} {
		opt.Coverage = true
		if got := coverageText(Run(context.Background(), sys, opt).Coverage); got != want {
			t.Fatalf("%s: coverage\n got %s\nwant %s", name, got, want)
		}
	}
	for _, disk := range []bool{false, true} {
		dir := t.TempDir()
		opt := Options{Coverage: true, Checkpoint: filepath.Join(dir, "ckpt"), Workers: 2}
		if disk {
			opt.Disk = filepath.Join(dir, "store")
		}
		ctx, cancel := context.WithCancel(context.Background())
		stopAt := opt
		stopAt.ProgressEvery = 1
		stopAt.Progress = func(p Progress) {
			if p.Depth >= 60 {
				cancel()
			}
		}
		if first := Run(ctx, sys, stopAt); first.Verdict != Incomplete || first.Err != nil {
			t.Fatalf("disk=%v: the interrupted run gave %s (%v)", disk, first.Verdict, first.Err)
		}
		opt.Resume = true
		if got := coverageText(Run(context.Background(), sys, opt).Coverage); got != want {
			t.Fatalf("disk=%v: resumed coverage\n got %s\nwant %s", disk, got, want)
		}
	}
}

// A checkpoint saved without coverage lacks the counts of the levels
// before it: resuming it with coverage is refused, without it accepted.
func TestResumeWithCoverageNeedsACheckpointWithCounts(t *testing.T) {
	dir := t.TempDir()
	sys := countersSystem(3)
	if r := Run(context.Background(), sys, Options{Checkpoint: dir}); r.Err != nil {
		t.Fatal(r.Err)
	}
	r := Run(context.Background(), sys, Options{Checkpoint: dir, Resume: true, Coverage: true})
	if r.Err == nil || !strings.Contains(r.Err.Error(), CoverageMissing) {
		t.Fatalf("resume with coverage: %v", r.Err)
	}
	dir = t.TempDir()
	if r := Run(context.Background(), sys, Options{Checkpoint: dir, Coverage: true}); r.Err != nil {
		t.Fatal(r.Err)
	}
	if r := Run(context.Background(), sys, Options{Checkpoint: dir, Resume: true}); r.Err != nil || r.Verdict != Pass || r.Coverage != nil {
		t.Fatalf("resume without coverage: %s, %v, coverage %v", r.Verdict, r.Err, r.Coverage)
	}
}

// Under partial-order reduction only the ample sets' transitions are taken,
// and only they are counted: the fired counts add up to the reduced run's
// transitions, fewer than the full run's.
func TestCoverageUnderReductionCountsTheAmpleSets(t *testing.T) {
	sys, err := changroberts.New(model.Params{N: 6, IDs: []int{6, 5, 4, 3, 2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := Run(context.Background(), sys, Options{Reduce: true, Safety: true, Coverage: true})
	if r.Err != nil || !r.Reduced || !r.Coverage.Reduced {
		t.Fatalf("err %v, reduced %v", r.Err, r.Reduced)
	}
	full := Run(context.Background(), sys, Options{Safety: true, Coverage: true})
	var fired, found int64
	for _, rc := range r.Coverage.Rules {
		fired, found = fired+rc.Fired, found+rc.New
	}
	if fired != r.Transitions || found != r.States-int64(len(sys.Init)) || r.Transitions >= full.Transitions {
		t.Fatalf("fired %d, found %d; reduced run: %d transitions, %d states; full run: %d transitions", fired, found, r.Transitions, r.States, full.Transitions)
	}
}
