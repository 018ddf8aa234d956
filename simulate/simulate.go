package simulate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ringcheck/mc/model"
)

// Options choose the runs of a simulation.
type Options struct {
	// Seed and First: the runs are First, First+1, …, First+Runs−1 of seed
	// Seed (mc simulate --run r is First r, Runs 1).
	Seed  uint64
	First int
	Runs  int
	// MaxSteps ends a run that is still going after this many steps: not
	// terminated, which leaves a termination property undecided on it
	// (Info.Terminates), as a depth limit leaves a check incomplete.
	MaxSteps int
	// RandomIDs gives each run a uniformly random arrangement of 1..n,
	// drawn from its own generator.
	RandomIDs bool
	// RandomOrientation gives each run a uniformly random orientation
	// assignment (Params.Orientation), drawn from its own generator after
	// its ids: for a spec on an unoriented ring, whose initial states are
	// otherwise every assignment, 2^n of them (vlt refuses that beyond
	// n = 16). The parameters must then fix none.
	RandomOrientation bool
	// Workers is how many runs go at once; the results do not depend on it.
	Workers int
	// Messages names the measure whose distribution the report gives as
	// the messages sent (a ghost counter of the spec); "" for none.
	Messages string
	// Coverage counts per rule and process the steps taken and the new
	// distinct states reached (coverage.go).
	Coverage bool
	// Progress, if not nil, is called after each run with how many are
	// done; calls may come from several goroutines at once.
	Progress func(done int)
}

// DefaultMaxSteps is the step limit when none is given: 4n² + 10,000, well
// above the n(n+1)/2 + n steps of Chang–Roberts' worst run.
func DefaultMaxSteps(n int) int { return 4*n*n + 10000 }

// Report is what a simulation found.
type Report struct {
	Info Info
	Opt  Options
	// Done is the number of runs summarised: every run asked for, or, when
	// one fails, the runs up to and including the first failing one (the
	// lowest-numbered, whatever the workers), or, when the simulation was
	// stopped, the runs that finished.
	Done int
	// Stopped says why the simulation stopped before its runs were done
	// (the context's cause); "" when it did not.
	Stopped string
	// Failure is the first failing run, nil when none failed.
	Failure *Run
	// NotTerminated counts the runs that reached the step limit.
	NotTerminated int
	Steps         Summary
	// Messages summarises Options.Messages; nil when none was named.
	Messages *Summary
	// Measures summarise every measure, by name, in the system's order.
	Measures []MeasureSummary
	// Witnessed[i] is how many runs reached a state where the system's
	// i-th witness holds.
	Witnessed []int
	// Met[i] is how many runs met the situation of Info.Situated[i]: the
	// others passed it vacuously.
	Met []int
	// Coverage is what Options.Coverage counted, over the runs up to the
	// first failing one; nil when it was off.
	Coverage *Coverage
}

// MeasureSummary is one measure's distribution over the runs: its value in
// each run's last state.
type MeasureSummary struct {
	Named
	Summary
}

// Simulate makes the runs opt asks for, of the system build makes of p.
// Bad options are an error before any run.
func Simulate(ctx context.Context, build Build, p model.Params, opt Options) (*Report, error) {
	switch {
	case opt.Runs < 1:
		return nil, fmt.Errorf("--runs must be at least 1, got %d", opt.Runs)
	case opt.First < 0:
		return nil, fmt.Errorf("--run must be at least 0, got %d", opt.First)
	case opt.MaxSteps < 1:
		return nil, fmt.Errorf("--max-steps must be at least 1, got %d", opt.MaxSteps)
	case opt.Workers < 1:
		return nil, fmt.Errorf("--workers must be at least 1, got %d", opt.Workers)
	case opt.RandomOrientation && p.Orientation != nil:
		return nil, fmt.Errorf("each run draws its orientation; --orientation %s does not apply", model.FormatOrientation(p.Orientation))
	}
	base, err := build(opt.Template(p))
	if err != nil {
		return nil, err
	}
	info := base.Info()
	messages := -1
	if opt.Messages != "" {
		messages = slices.IndexFunc(info.Measures, func(m Named) bool { return m.Name == opt.Messages })
		if messages < 0 {
			return nil, fmt.Errorf("spec %s has no measure %s to count messages by", info.Spec, opt.Messages)
		}
	}
	var cov *covering
	if opt.Coverage {
		cov = newCovering(len(info.Rules) * info.Procs)
	}
	runs, stopped, err := runAll(ctx, build, base, p, opt, cov)
	if err != nil {
		return nil, err
	}
	r := &Report{Info: info, Opt: opt, Stopped: stopped, Witnessed: make([]int, len(info.Witnesses)), Met: make([]int, len(info.Situated))}
	if cov != nil {
		r.Coverage = &cov.c
	}
	var done []*Run
	for i := range runs {
		if runs[i] == nil {
			continue
		}
		done = append(done, runs[i])
		if runs[i].Failure != nil {
			r.Failure = runs[i]
			break
		}
	}
	r.Done = len(done)
	steps := make([]int, len(done))
	values := make([][]int, len(info.Measures))
	for k, run := range done {
		steps[k] = run.Steps
		if !run.Terminated && run.Failure == nil {
			r.NotTerminated++
		}
		for i, v := range run.Measures {
			values[i] = append(values[i], v)
		}
		for _, name := range run.Witnessed {
			if i := slices.Index(info.Witnesses, name); i >= 0 {
				r.Witnessed[i]++
			}
		}
		for _, name := range run.Met {
			if i := slices.IndexFunc(info.Situated, func(u Unmet) bool { return u.Name == name }); i >= 0 {
				r.Met[i]++
			}
		}
	}
	r.Steps = summarise(steps)
	for i, m := range info.Measures {
		r.Measures = append(r.Measures, MeasureSummary{Named: m, Summary: summarise(values[i])})
	}
	if messages >= 0 {
		r.Messages = &r.Measures[messages].Summary
	}
	return r, nil
}

// perRun says each run builds a system of its own, for the ids or the
// orientation it draws.
func (opt Options) perRun() bool { return opt.RandomIDs || opt.RandomOrientation }

// Template is p as the system every run shares is built from, to know the
// spec's rules, properties and measures: with RandomOrientation, p with
// every process oriented alike in place of the orientation each run draws.
func (opt Options) Template(p model.Params) model.Params {
	if opt.RandomOrientation {
		p.Orientation = make([]bool, p.N)
	}
	return p
}

// runAll makes the runs, opt.Workers at a time. Worker k takes the next run
// not yet taken; once a run fails, no run after it is started, but those
// before it are finished, so that the first failing run is the same for
// any number of workers. runs[i] is run First+i, nil if not made.
func runAll(ctx context.Context, build Build, base System, p model.Params, opt Options, cov *covering) ([]*Run, string, error) {
	runs := make([]*Run, opt.Runs)
	var next, done atomic.Int64
	var firstFailure atomic.Int64
	firstFailure.Store(math.MaxInt64)
	var wg sync.WaitGroup
	var errOnce sync.Once
	var buildErr error
	lastCounted := func() int { return int(min(firstFailure.Load(), int64(opt.Runs-1))) }
	for range min(opt.Workers, opt.Runs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w worker
			if !opt.perRun() {
				w = base.newWorker()
			}
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= int64(opt.Runs) || i > firstFailure.Load() {
					return
				}
				run, err := one(ctx, build, w, p, opt, opt.First+int(i), false)
				if err != nil {
					errOnce.Do(func() { buildErr = err })
					return
				}
				if run.interrupted {
					return
				}
				if run.Failure != nil {
					for f := firstFailure.Load(); i < f && !firstFailure.CompareAndSwap(f, i); f = firstFailure.Load() {
					}
				}
				if cov != nil {
					cov.add(int(i), run.visits, lastCounted)
					run.visits = nil
				}
				runs[i] = &run
				if d := done.Add(1); opt.Progress != nil {
					opt.Progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	if buildErr != nil {
		return nil, "", buildErr
	}
	stopped := ""
	if ctx.Err() != nil {
		stopped = context.Cause(ctx).Error()
	}
	return runs, stopped, nil
}

// one makes run index of opt.Seed with w, or, with random ids or
// orientations, with a runner of the system built for the run's own draw.
func one(ctx context.Context, build Build, w worker, p model.Params, opt Options, index int, record bool) (Run, error) {
	gen := generator(opt.Seed, index)
	var ids []int
	var oriented []bool
	if opt.RandomIDs {
		ids = arrangement(gen, p.N)
		p.IDs = ids
	}
	if opt.RandomOrientation {
		oriented = orientation(gen, p.N)
		p.Orientation = oriented
	}
	if opt.perRun() {
		sys, err := build(p)
		if err != nil {
			return Run{}, fmt.Errorf("run %d, with what it drew: %v", index, err)
		}
		w = sys.newWorker()
	}
	run := w.run(ctx, gen, opt.MaxSteps, record, opt.Coverage)
	run.Index, run.IDs, run.Orientation = index, ids, oriented
	return run, nil
}

// Replay makes run index of opt.Seed again, keeping its actions: what a
// trace of a failing run is written from. It returns the parameters the
// run was made with (its ids and orientation, when it drew them).
func Replay(build Build, p model.Params, opt Options, index int) (Run, model.Params, error) {
	var w worker
	if !opt.perRun() {
		sys, err := build(p)
		if err != nil {
			return Run{}, p, err
		}
		w = sys.newWorker()
	}
	run, err := one(context.Background(), build, w, p, opt, index, true)
	if run.IDs != nil {
		p.IDs = run.IDs
	}
	if run.Orientation != nil {
		p.Orientation = run.Orientation
	}
	return run, p, err
}
