package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/ringcheck/mc/cmdflags"
	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

type sweepFlags struct {
	// Sweep are the flags mc-beam sweep shares.
	cmdflags.Sweep
	db        dbFlags
	maxMemory string
	por       bool
	// sample, seed and workers are mc sweep --sample's (sampled.go).
	sample  int
	seed    uint64
	workers int
}

// runSweep is mc sweep SPEC: the fewest and most messages over every
// schedule, for every arrangement class of each ring size. mc sweep all
// regenerates results/ (--out, default results). With --sample R it
// samples R random runs per size instead (runSampled).
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f sweepFlags
	fs := newFlagSet("sweep", "SPEC|all [flags]", stdout)
	f.Sweep.Add(fs)
	fs.StringVar(&f.maxMemory, "max-memory", "", "stop, incomplete (exit 3), once mc holds more memory than this, e.g. 512MiB (default: as mc check, 7/8 of the memory available)")
	fs.IntVar(&f.sample, "sample", 0, "sample R random runs per size (mc simulate --random-ids) instead of every class; --n a..b then means a, 2a, 4a, … ≤ b (default "+sweepout.DefaultSampledSizes+")")
	fs.Uint64Var(&f.seed, "seed", 1, "with --sample: the seed; the same seed gives the same table whatever --workers")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "classes computed at once (with --sample: runs made at once); the rows are the same for any number")
	fs.BoolVar(&f.por, "por", false, "compute each class on its reduced graph (partial-order reduction, as mc check --por): the same messages, fewer states")
	f.db.Add(fs)
	f.db.AddOff(fs)
	f.db.AddFresh(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mc sweep: want exactly one SPEC or all (see mc sweep --help)")
		return exitUsage
	}
	if out := f.outDir(fs.Arg(0), fs.Changed("sample")); out != "" {
		// Before the sweep: --out /proc/nope was found only after the
		// table was printed, exit 4.
		if err := writableDir("--out", out); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %s\n", printable(err.Error()))
			return exitUsage
		}
	}
	memory := memlimit.Default()
	if fs.Changed("max-memory") {
		var err error
		if memory, err = memlimit.Flag(f.maxMemory, memoryFloor()); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %s\n", printable(err.Error()))
			return exitUsage
		}
	}
	defer limitMemory(memory)()
	ctx, unwatch := memlimit.Watch(ctx, memory)
	defer unwatch()
	if fs.Changed("sample") {
		return runSampled(ctx, fs, &f, stdout, stderr)
	}
	for _, name := range sampledOnly {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "mc sweep: --%s applies only with --sample\n", name)
			return exitUsage
		}
	}
	if f.workers < 1 {
		fmt.Fprintf(stderr, "mc sweep: --workers must be at least 1, got %d\n", f.workers)
		return exitUsage
	}
	dbDir, err := f.db.Path(fs, defaultDB)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitUsage
	}
	if fs.Arg(0) == "all" {
		if f.Ns != "" || f.IDs != "all" || f.Variant != "" || f.Drift != 0 || f.por || f.Params != nil {
			fmt.Fprintln(stderr, "mc sweep all: takes only --out, --json, --max-states, --timeout, --workers and the run store's flags")
			return exitUsage
		}
		dir := f.outDir("all", false)
		return withClasses(dbDir, "sweep", f.db.Fresh, stderr, func(c classes) int {
			return sweepAll(ctx, dir, sweep.CostOptions{MaxStates: f.MaxStates, Timeout: f.Timeout}, f.workers, c, f.JSON, stdout, stderr)
		})
	}
	name, cfg, ns, err := sweepout.Resolve(f.Request(fs.Arg(0), fs.Changed))
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitUsage
	}
	cfg.Reduce, cfg.Workers = f.por, f.workers
	return withClasses(dbDir, "sweep", f.db.Fresh, stderr, func(c classes) int {
		return sweepSpec(ctx, name, c.config(cfg), ns, &f, stdout, stderr)
	})
}

// outDir is the directory the sweep of spec (a name or all) writes its
// files in: --out, or results/ for all but a sampled one; "" for none.
func (f *sweepFlags) outDir(spec string, sampled bool) string {
	if f.Out == "" && spec == "all" && !sampled {
		return "results"
	}
	return f.Out
}

// sweepSpec sweeps one spec and prints its table.
func sweepSpec(ctx context.Context, name string, cfg sweep.Config, ns []int, f *sweepFlags, stdout, stderr io.Writer) int {
	t, code := sweepTable(ctx, name, cfg, ns, stderr)
	if t == nil {
		return code
	}
	if f.JSON {
		if err := sweepout.WriteJSON(stdout, t); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
	} else {
		sweep.WriteText(stdout, t)
	}
	if f.Out != "" {
		if err := sweepout.WriteDir(f.Out, t, version()); err != nil {
			return outputFailed(stderr, "sweep", "--out", f.Out, err)
		}
	}
	return exitPass
}

// sweepTable runs cfg for every n in ns; on failure it returns nil and the
// exit code, having said why in one line. With a run store, it says on
// stderr how many classes it reused and how many it computed.
func sweepTable(ctx context.Context, name string, cfg sweep.Config, ns []int, stderr io.Writer) (*sweep.Table, int) {
	t := sweep.NewTable(name, cfg)
	var tally classTally
	for _, n := range ns {
		row, err := sweep.Run(ctx, cfg, n)
		var stopped *sweep.Incomplete
		if errors.As(err, &stopped) {
			// A limit or an interrupt: incomplete, with what stopped it.
			if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
				stopped.Why = cause.Error()
			}
			fmt.Fprintf(stderr, "mc sweep: incomplete: %s\n", printable(stopped.Error()))
			return nil, exitIncomplete
		}
		if err != nil {
			fmt.Fprintf(stderr, "mc sweep: %s\n", classError(err))
			return nil, classExit(err, exitUsage)
		}
		tally.add(row)
		t.Rows = append(t.Rows, row)
	}
	if cfg.Store != nil {
		fmt.Fprintf(stderr, "mc sweep %s: %s\n", name, tally)
	}
	return t, exitPass
}
