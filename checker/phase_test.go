package checker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
)

// reachCorner is "eventually both counters are at k": every fair run of
// countersSystem(k) ends there, so it holds under weak fairness per process.
func reachCorner(k int) model.Property[counters] {
	return model.EventuallyProp("corner", "test", "", func(s *counters) bool { return s.x[0] == k && s.x[1] == k })
}

func reachX0(k int) model.Property[counters] {
	return model.EventuallyProp("x0-at-k", "test", "", func(s *counters) bool { return s.x[0] == k })
}

// cancelIn runs sys, with the store on disk under disk if it is not "",
// with a progress callback that cancels the run at the first report for
// which stop holds, and returns the result and the reports seen.
func cancelIn(t *testing.T, sys *model.System[counters], disk string, stop func(Progress) bool) (Result, []Progress) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []Progress
	opt := Options{Workers: 1, Disk: disk, Fair: model.FairProcess, ProgressEvery: time.Nanosecond, Progress: func(p Progress) {
		seen = append(seen, p)
		if stop(p) {
			cancel()
		}
	}}
	r := Run(ctx, sys, opt)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r, seen
}

// Ctrl-C during the liveness graph's build stops it: the safety figures are
// whole, the liveness property is incomplete, never pass, and the graph's
// cycles are not counted, so nothing claims that every run is finite.
// Progress goes on through the phase and names it. (The search records
// the graph with the store in memory: on disk, it is built after.)
func TestCancelStopsTheLivenessGraph(t *testing.T) {
	const k = 200
	r, seen := cancelIn(t, countersSystem(k, reachCorner(k)), t.TempDir(), func(p Progress) bool { return p.Phase == PhaseLiveness })
	if r.States != (k+1)*(k+1) || r.Verdict != Incomplete || r.Reason != "liveness: interrupted" {
		t.Fatalf("%d states, verdict %s, reason %q", r.States, r.Verdict, r.Reason)
	}
	if l := r.Liveness; l == nil || l.Complete || l.Cycles != 0 || l.Reason != "interrupted" || l.States >= r.States {
		t.Fatalf("liveness %+v", r.Liveness)
	}
	if v := prop(&r, "corner").Verdict; v != Incomplete {
		t.Fatalf("corner: %s", v)
	}
	phases := map[string]bool{}
	for _, p := range seen {
		phases[p.Phase] = true
	}
	if !phases[PhaseSafety] || !phases[PhaseLiveness] || len(phases) != 2 {
		t.Fatalf("progress phases %v", phases)
	}
}

// Ctrl-C during the search stops it before the next property: the one
// searched has its verdict, the next is incomplete; the graph was whole, so
// its cycles are counted.
func TestCancelStopsTheLivenessSearch(t *testing.T) {
	const k = 20
	sys := countersSystem(k, reachCorner(k), reachX0(k))
	r, _ := cancelIn(t, sys, "", func(p Progress) bool { return p.Phase == PhaseLiveness && p.Frontier == 0 })
	if got := prop(&r, "corner").Verdict + "/" + prop(&r, "x0-at-k").Verdict; got != "pass/incomplete" {
		t.Fatalf("verdicts %s", got)
	}
	if l := r.Liveness; !l.Complete || l.Reason != "interrupted" || r.Verdict != Incomplete {
		t.Fatalf("verdict %s, liveness %+v", r.Verdict, l)
	}
	whole := Run(context.Background(), sys, Options{Fair: model.FairProcess})
	if whole.Verdict != Pass {
		t.Fatalf("uninterrupted: %s", whole.Verdict)
	}
}

// The memory limit holds in the liveness phase: the graph's build stops
// while the search's memory still fits (with a limit of one byte, at once),
// and the property is incomplete.
func TestMemoryLimitStopsTheLivenessGraph(t *testing.T) {
	// The guard, used here without Run, lowers the runtime's soft limit to
	// its own 1 B and Run is not there to give it back: left so, the
	// collector ran without pause through every later test of the package.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	sys := countersSystem(20, reachCorner(20))
	guard := newPhaseGuard(context.Background(), PhaseLiveness, Options{}, time.Now(), 1)
	props := []*model.Property[counters]{&sys.Props[0]}
	g, err := liveness.Build(sys, props, liveness.Limits{}, guard, liveness.SearchBytesPerState, nil)
	if err != nil || g.Expanded() != 0 || !strings.HasPrefix(g.Stop(), "memory limit 1 B reached") || !strings.Contains(g.Stop(), "more needed to search it") {
		t.Fatalf("err %v, %d expanded, stop %q", err, g.Expanded(), g.Stop())
	}
	r := Run(context.Background(), sys, Options{MaxMemory: 1, Fair: model.FairProcess})
	if l := r.Liveness; r.Verdict != Incomplete || l == nil || l.Complete || !strings.HasPrefix(l.Reason, "memory limit") || prop(&r, "corner").Verdict != Incomplete {
		t.Fatalf("verdict %s, liveness %+v", r.Verdict, r.Liveness)
	}
}

// Without Continue, a run whose safety failed does not check liveness (it
// is not checked, and no graph is built); with it, liveness is checked.
func TestSafetyFailureSkipsLiveness(t *testing.T) {
	const k = 30
	sys := countersSystem(k, model.InvariantProp("x0-below-5", "test", "", func(s *counters) bool { return s.x[0] < 5 }), reachCorner(k))
	sys.Measures = []model.Measure[counters]{{Name: "x0", Value: func(s *counters) int { return s.x[0] }}}
	r := Run(context.Background(), sys, Options{Fair: model.FairProcess})
	if r.Verdict != Fail || !r.StoppedAtViolation || r.Liveness != nil || prop(&r, "corner").Verdict != NotChecked || r.Depth != 4 {
		t.Fatalf("verdict %s, stopped %v, liveness %+v, corner %s, depth %d", r.Verdict, r.StoppedAtViolation, r.Liveness, prop(&r, "corner").Verdict, r.Depth)
	}
	if m := r.Measures[0]; m.Complete || m.Max != 5 {
		t.Fatalf("measure of a stopped run: %+v, want a lower bound of 5", m)
	}
	all := Run(context.Background(), sys, Options{Fair: model.FairProcess, Continue: true})
	if all.StoppedAtViolation || all.States != (k+1)*(k+1) || prop(&all, "corner").Verdict != Pass || !all.Measures[0].Complete {
		t.Fatalf("--continue: stopped %v, %d states, corner %s", all.StoppedAtViolation, all.States, prop(&all, "corner").Verdict)
	}
}

// Without Continue, the liveness check stops at the first property that
// fails; the later ones are not checked.
func TestFirstLivenessFailureStopsTheCheck(t *testing.T) {
	const k = 10
	never := model.EventuallyProp("never", "test", "", func(s *counters) bool { return s.x[0] > k })
	sys := countersSystem(k, never, reachCorner(k))
	r := Run(context.Background(), sys, Options{Fair: model.FairProcess})
	if got := prop(&r, "never").Verdict + "/" + prop(&r, "corner").Verdict; got != "fail/not-checked" || !r.StoppedAtViolation || r.Verdict != Fail {
		t.Fatalf("verdicts %s, stopped %v, run %s", got, r.StoppedAtViolation, r.Verdict)
	}
	all := Run(context.Background(), sys, Options{Fair: model.FairProcess, Continue: true})
	if got := prop(&all, "never").Verdict + "/" + prop(&all, "corner").Verdict; got != "fail/pass" || all.StoppedAtViolation {
		t.Fatalf("--continue: verdicts %s, stopped %v", got, all.StoppedAtViolation)
	}
}

// The run's time is the sum of its phases'.
func TestElapsedCoversEveryPhase(t *testing.T) {
	r := Run(context.Background(), countersSystem(50, reachCorner(50)), Options{Fair: model.FairProcess})
	if r.Liveness == nil || r.SafetyElapsed <= 0 || r.Liveness.Elapsed <= 0 || r.Elapsed != r.SafetyElapsed+r.Liveness.Elapsed {
		t.Fatalf("elapsed %s, safety %s, liveness %+v", r.Elapsed, r.SafetyElapsed, r.Liveness)
	}
}

// A disk run that checkpoints and is stopped in the liveness phase keeps
// the working directory its checkpoint names (it was removed when the
// liveness phase began, and the printed resume was refused, "the working
// directory … is gone"): the resume finishes the run, liveness included.
func TestStopInTheLivenessPhaseResumesOnDisk(t *testing.T) {
	const k = 60
	sys := countersSystem(k, reachCorner(k))
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{Workers: 1, Fair: model.FairProcess, Disk: filepath.Join(dir, "store"), Checkpoint: filepath.Join(dir, "ckpt"),
		ProgressEvery: time.Nanosecond, Progress: func(p Progress) {
			if p.Phase == PhaseLiveness {
				cancel()
			}
		}}
	r := Run(ctx, sys, opt)
	if r.Err != nil || r.Reason != "liveness: interrupted" || r.Checkpoint == nil || r.WorkDirKept == "" {
		t.Fatalf("stopped run: %v, reason %q, checkpoint %+v, work dir kept %q", r.Err, r.Reason, r.Checkpoint, r.WorkDirKept)
	}
	opt.Resume, opt.Progress = true, nil
	r = Run(context.Background(), sys, opt)
	if r.Err != nil || r.Verdict != Pass || r.States != (k+1)*(k+1) || prop(&r, "corner").Verdict != Pass {
		t.Fatalf("resumed run: %v, %s, %d states", r.Err, r.Verdict, r.States)
	}
	if _, err := os.Stat(r.WorkDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the finished run left its working directory %s (%v)", r.WorkDir, err)
	}
}
