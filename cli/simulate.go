package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/tracefile"
)

// simulateFlags are the flags of mc simulate: check's spec flags and the
// simulation's own.
type simulateFlags struct {
	spec      checkFlags
	runs      int
	seed      uint64
	run       int
	maxSteps  int
	randomIDs bool
	workers   int
	json      bool
	traceOut  string
	junit     string
	timeout   time.Duration
	maxMemory string
	progress  bool
	coverage  bool
}

// runSimulate is mc simulate SPEC: R random runs, each checking every
// property as it goes, and the distribution of what they measured
// (package simulate; docs/simulate.md).
func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f simulateFlags
	fs := newFlagSet("simulate", "SPEC [flags]", stdout)
	f.spec.addParamFlags(fs)
	fs.IntVar(&f.runs, "runs", 1000, "number of runs")
	fs.Uint64Var(&f.seed, "seed", 1, "seed: run r of seed S is the same run whatever --workers")
	fs.IntVar(&f.run, "run", 0, "make only run N of the seed (the reproduction of a failure)")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "stop a run after this many steps, not terminated: incomplete (exit 3) for specs whose runs must end (default 4n²+10000)")
	fs.BoolVar(&f.randomIDs, "random-ids", false, "give each run a uniformly random arrangement of the ids 1..n")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "runs made at once; results are identical for any number")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the human summary")
	fs.StringVar(&f.traceOut, "trace-out", "", "write the first failing run to this trace file (see mc trace)")
	addJUnitFlag(fs, &f.junit)
	fs.DurationVar(&f.timeout, "timeout", 0, "stop, incomplete (exit 3), after this long, e.g. 30s (default none)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "stop, incomplete (exit 3), once mc holds more memory than this, e.g. 512MiB (default none)")
	fs.BoolVar(&f.progress, "progress", false, "show the runs done on stderr")
	fs.BoolVar(&f.coverage, "coverage", false, "report per rule and process how often it fired and how many new distinct states it reached, and warn of rules that never fired (see docs/coverage.md)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	start := time.Now()
	entry, p, opt, memory, err := f.resolve(fs)
	if err != nil {
		fmt.Fprintf(stderr, "mc simulate: %s\n", printable(err.Error()))
		return exitUsage
	}
	ctx, stop := f.limits(ctx, memory)
	defer stop()
	var done atomic.Int64
	if f.progress {
		opt.Progress = func(d int) { done.Store(int64(d)) }
		defer showProgress(stderr, &done, opt.Runs)()
	}
	rep, err := simulate.Simulate(ctx, entry.Simulate, p, opt)
	if err != nil {
		fmt.Fprintf(stderr, "mc simulate: %s\n", printable(err.Error()))
		return exitUsage
	}
	out := newSimulateOutput(rep, entry, p, args)
	warnNeverFiredIn(stderr, "simulate", simulationCoverage(rep.Coverage, rep.Info))
	var failedRun *tracefile.File
	if rep.Failure != nil && (f.traceOut != "" || f.junit != "") {
		if failedRun, err = failedRunFile(entry, p, opt, rep.Failure); err != nil {
			fmt.Fprintf(stderr, "mc simulate: %s\n", printable(err.Error()))
			return exitInternal
		}
	}
	var traceErr error // --trace-out's and --junit's, reported after the output
	if failedRun != nil && f.traceOut != "" {
		if traceErr = writeTraceFile(f.traceOut, failedRun); traceErr == nil {
			out.Failure.TraceOut = f.traceOut
		}
	}
	junitErr := writeJUnit(f.junit, "simulate", []junit.Suite{simulateSuite(out, rep, failedRun, start)})
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return exitInternal
		}
	} else {
		out.writeText(stdout)
	}
	switch {
	case traceErr != nil:
		return outputFailed(stderr, "simulate", "--trace-out", f.traceOut, traceErr)
	case junitErr != nil:
		return outputFailed(stderr, "simulate", "--junit", f.junit, junitErr)
	case out.Verdict == "fail":
		return exitFail
	case out.Verdict == "incomplete":
		return exitIncomplete
	}
	return exitPass
}

// resolve checks the flags and turns them into the spec, its parameters,
// the simulation's options and the memory limit, before any run.
func (f *simulateFlags) resolve(fs *pflag.FlagSet) (specs.Entry, model.Params, simulate.Options, int64, error) {
	var opt simulate.Options
	if fs.NArg() != 1 {
		return specs.Entry{}, model.Params{}, opt, 0, errors.New("want exactly one spec name (see mc list)")
	}
	entry, p, err := f.spec.specParams(fs, fs.Arg(0))
	if err != nil {
		return entry, p, opt, 0, err
	}
	// The spec's messages are its ghost counters (claims), which change
	// no run: always on.
	p.Claims = true
	if err := p.Validate(); err != nil {
		return entry, p, opt, 0, err
	}
	opt = simulate.Options{Seed: f.seed, Runs: f.runs, MaxSteps: f.maxSteps, RandomIDs: f.randomIDs, Workers: f.workers, Coverage: f.coverage,
		// A spec on an unoriented ring draws each run's orientation as
		// --random-ids draws its ids, unless --orientation fixes one.
		RandomOrientation: entry.Takes.Has(specdef.Orientation) && p.Orientation == nil}
	if !fs.Changed("max-steps") {
		opt.MaxSteps = simulate.DefaultMaxSteps(p.N)
	}
	switch {
	case fs.Changed("run") && fs.Changed("runs"):
		return entry, p, opt, 0, errors.New("--run makes one run; --runs does not apply")
	case fs.Changed("run"):
		opt.First, opt.Runs = f.run, 1
	}
	switch {
	case f.randomIDs && entry.Anonymous():
		return entry, p, opt, 0, fmt.Errorf("spec %s gives its processes no ids; --random-ids does not apply", entry.Name)
	case f.randomIDs && fs.Changed("ids"):
		return entry, p, opt, 0, errors.New("--random-ids draws the ids of each run; --ids does not apply")
	case opt.Runs < 1:
		return entry, p, opt, 0, fmt.Errorf("--runs must be at least 1, got %d", opt.Runs)
	case opt.First < 0:
		return entry, p, opt, 0, fmt.Errorf("--run must be at least 0, got %d", opt.First)
	case opt.MaxSteps < 1:
		return entry, p, opt, 0, fmt.Errorf("--max-steps must be at least 1, got %d", opt.MaxSteps)
	case opt.Workers < 1:
		return entry, p, opt, 0, fmt.Errorf("--workers must be at least 1, got %d", opt.Workers)
	case f.timeout < 0:
		return entry, p, opt, 0, fmt.Errorf("--timeout must not be negative, got %v", f.timeout)
	}
	var memory int64
	if fs.Changed("max-memory") {
		if memory, err = memlimit.Flag(f.maxMemory, memoryFloor()); err != nil {
			return entry, p, opt, 0, err
		}
	}
	if f.traceOut != "" {
		if err := checkTraceOut(f.traceOut); err != nil {
			return entry, p, opt, 0, err
		}
	}
	if err := checkJUnitOut(f.junit); err != nil {
		return entry, p, opt, 0, err
	}
	sys, err := entry.Simulate(opt.Template(p))
	if err != nil {
		return entry, p, opt, 0, err
	}
	opt.Messages = sys.Info().MessageMeasure()
	return entry, p, opt, memory, nil
}

// limits bounds the simulation by --timeout and --max-memory: either stops
// it, incomplete, with the reason as the context's cause.
func (f *simulateFlags) limits(ctx context.Context, memory int64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stops := []func(){func() { cancel(nil) }}
	if f.timeout > 0 {
		t := time.AfterFunc(f.timeout, func() { cancel(fmt.Errorf("time limit %v reached", f.timeout)) })
		stops = append(stops, func() { t.Stop() })
	}
	ctx, unwatch := memlimit.Watch(ctx, memory)
	stops = append(stops, unwatch)
	return ctx, func() {
		for _, stop := range slices.Backward(stops) {
			stop()
		}
	}
}

// showProgress prints the runs done on stderr every second until the
// function it returns is called.
func showProgress(stderr io.Writer, done *atomic.Int64, runs int) func() {
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		start := time.Now()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				fmt.Fprintf(stderr, "mc simulate: %d of %d runs, %s\n", done.Load(), runs, time.Since(start).Round(time.Second))
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// failedRunFile makes the failing run again, keeping its actions, as a
// trace file: what --trace-out writes and --junit prints.
func failedRunFile(entry specs.Entry, p model.Params, opt simulate.Options, failed *simulate.Run) (*tracefile.File, error) {
	run, p, err := simulate.Replay(entry.Simulate, p, opt, failed.Index)
	if err != nil {
		return nil, err
	}
	if run.Failure == nil || run.Failure.Property != failed.Failure.Property || run.Steps != failed.Steps {
		return nil, fmt.Errorf("internal error: run %d did not fail alike when made again", failed.Index)
	}
	t, err := entry.Build(p)
	if err != nil {
		return nil, err
	}
	info := t.Info()
	pr := checker.PropResult{Name: run.Failure.Property, Kind: run.Failure.Kind, Verdict: checker.Fail,
		Trace: &checker.Trace{Property: run.Failure.Property, Kind: run.Failure.Kind.String(), Deadlock: run.Failure.Deadlock, Init: run.Init}}
	for _, pi := range info.Props {
		if pi.Name == pr.Name {
			pr.Ref, pr.Doc = pi.Ref, pi.Doc
		}
	}
	for _, a := range run.Actions {
		pr.Trace.Steps = append(pr.Trace.Steps, checker.Step{Action: a})
	}
	file, err := tracefile.Build(t, checker.MeaningOf(info, checker.Options{Fair: entry.Defaults.Fair}), &pr, version())
	if err != nil {
		return nil, err
	}
	file.Simulation = &tracefile.Simulation{Seed: opt.Seed, Run: run.Index}
	return file, nil
}

// reproduction is the command line that makes run r of the simulation
// again: args without the flags that choose other runs or outputs, with
// --seed and --run.
func reproduction(args []string, seed uint64, run int) string {
	// dropped are the flags left out, each with whether it takes a value.
	dropped := map[string]bool{"runs": true, "run": true, "seed": true, "workers": true, "json": false, "trace-out": true, "junit": true, "progress": false, "timeout": true, "max-memory": true, "coverage": false}
	out := []string{"mc", "simulate"}
	for i := 0; i < len(args); i++ {
		name, hasValue := strings.CutPrefix(args[i], "--")
		if !hasValue {
			out = append(out, args[i])
			continue
		}
		name, _, inline := strings.Cut(name, "=")
		takesValue, drop := dropped[name]
		if !drop {
			out = append(out, args[i])
			continue
		}
		if takesValue && !inline {
			i++
		}
	}
	return strings.Join(append(out, "--seed", strconv.FormatUint(seed, 10), "--run", strconv.Itoa(run)), " ")
}
