package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/cmdflags"
	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/paramflags"
)

// checkFlags are the flags of mc check.
type checkFlags struct {
	// Flags are the spec's parameters (paramflags.Names).
	paramflags.Flags
	// Check are the flags mc-beam check shares: --continue, --safety,
	// --all-ids and --json.
	cmdflags.Check
	maxStates  int64
	maxMemory  string
	timeout    time.Duration
	traceOut   string
	junit      string // --junit: the JUnit XML report's file, "" for none
	progress   bool
	workers    int
	exact      bool
	store      string
	dir        string
	keepDir    bool
	checkpoint string
	every      time.Duration
	resume     string
	// everyN is --every-n: every ring size, by a cutoff theorem.
	everyN bool
	fair   string
	// fairness is --fair resolved against the spec's default.
	fairness model.Fairness
	por      bool
	shortest bool
	maxDepth int
	coverage bool
	// noDeadlock is --no-deadlock: terminal states are not checked for
	// deadlock (model.Deadlock).
	noDeadlock bool
	// defaultMemory is the memory limit when neither --max-memory nor
	// GOMEMLIMIT gives one (memlimit.go); 0 when one does.
	defaultMemory int64
	// specHash is the spec's Hash, which checkpoints record.
	specHash string
	// db chooses the run store that records the check.
	db dbFlags
}

func newCheckFlagSet(f *checkFlags, stdout io.Writer) *pflag.FlagSet {
	fs := newFlagSet("check", "SPEC [flags]", stdout)
	f.addParamFlags(fs)
	fs.Int64Var(&f.maxStates, "max-states", 0, "stop, incomplete, after this many distinct states (default no limit)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "stop, incomplete (exit 3), once mc holds more memory than this, e.g. 512MiB, in every phase (default GOMEMLIMIT if set, else 7/8 of the memory available at the start: MemAvailable and any cgroup limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop, incomplete, after this long, e.g. 30s (default none)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "goroutines that expand each level; results are identical for any number")
	fs.BoolVar(&f.exact, "exact", false, "store full states instead of 64-bit fingerprints (no collision possible; more memory)")
	fs.StringVar(&f.store, "store", "memory", "visited set: memory, or disk (sorted runs of fingerprints under --dir, looked up once per level; memory stays bounded)")
	fs.StringVar(&f.dir, "dir", "", "directory for --store disk, in which each run makes and locks a working directory of its own (see docs/reliability.md)")
	fs.BoolVar(&f.keepDir, "keep-dir", false, "keep the disk run's working directory when the run ends (by default it is removed, unless a checkpoint needs it)")
	fs.StringVar(&f.checkpoint, "checkpoint", "", "directory where progress is saved at level boundaries (the first after 10s at most)")
	fs.DurationVar(&f.every, "checkpoint-every", time.Minute, "least time between two checkpoints (0: every level)")
	fs.StringVar(&f.resume, "resume", "", "continue the run checkpointed in this directory (SPEC and its flags may be left out)")
	f.AddContinue(fs)
	fs.IntVar(&f.maxDepth, "max-depth", 0, "explore only the states at most this many steps from an initial state: incomplete (exit 3) if deeper ones exist, liveness then not checked (default no bound; see docs/coverage.md)")
	fs.BoolVar(&f.coverage, "coverage", false, "report per rule and process how often it fired and how many new states it found, and warn of rules that never fired (see docs/coverage.md)")
	f.AddFailVacuous(fs)
	fs.BoolVar(&f.noDeadlock, "no-deadlock", false, "do not report a terminal state (no action enabled) that the spec does not declare a proper end as a deadlock (see docs/specs.md)")
	f.AddSafety(fs)
	fs.BoolVar(&f.por, "por", false, "partial-order reduction: store far fewer states, same verdicts; counterexamples need not be shortest")
	fs.BoolVar(&f.shortest, "shortest", false, fmt.Sprintf("with --por, re-run a failure without reduction (bounded by --max-states, default %d) for a shortest counterexample", checker.ShortestBound))
	fs.BoolVar(&f.everyN, "every-n", false, "for a spec written as a token-ring template, check every ring size up to the cutoff of the theorem that covers its properties, and so every n ≥ 2; refused, naming the failing hypothesis, where no theorem applies (see docs/every-n.md)")
	f.AddAllIDs(fs)
	fs.StringVar(&f.fair, "fair", "", "fairness for liveness properties: none, process (weak, per process) or action (weak, per rule) (default: the spec's, see mc list)")
	f.AddJSON(fs)
	fs.StringVar(&f.traceOut, "trace-out", "", "write the failing run (or, if none fails, a witness's run) to this trace file (see mc trace)")
	addJUnitFlag(fs, &f.junit)
	fs.BoolVar(&f.progress, "progress", false, "show progress on stderr even with --json or when stderr is not a terminal")
	f.db.Add(fs)
	f.db.AddOff(fs)
	return fs
}

// paramFlags are the flags that choose a spec's parameters, shared by
// mc check and mc explore.
var paramFlags = paramflags.Names

func (f *checkFlags) addParamFlags(fs *pflag.FlagSet) { f.Flags.Add(fs) }

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f := checkFlags{Flags: paramflags.Flags{Largest: checker.MaxProcs}}
	fs := newCheckFlagSet(&f, stdout)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if !fs.Changed("max-memory") {
		f.defaultMemory = memlimit.Default()
	}
	if f.everyN {
		return runEveryN(ctx, fs, &f, args, stdout, stderr)
	}
	if f.AllIDs {
		return runAllIDs(ctx, fs, &f, args, stdout, stderr)
	}
	entry, p, refusals, err := f.target(fs)
	if bug := (*mcBug)(nil); errors.As(err, &bug) {
		fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", bug.err)
		return exitInternal
	}
	if len(refusals) > 0 {
		for _, why := range refusals {
			fmt.Fprintf(stderr, "mc check: %s\n", why)
		}
		return exitUsage
	}
	if err == nil {
		err = f.checkLimits(fs)
	}
	if err == nil && f.traceOut != "" {
		err = checkTraceOut(f.traceOut)
	}
	if err == nil {
		err = checkJUnitOut(f.junit)
	}
	var target checker.Target
	if err == nil {
		target, err = entry.Build(p)
	}
	if err == nil && f.por {
		err = checker.CanReduce(f.options(), target.Props(), target.HasTermination())
	}
	if err == nil {
		err = f.checkPaths()
	}
	if err == nil {
		err = f.resumeWorkDir()
	}
	var dbDir string
	if err == nil {
		dbDir, err = f.db.Path(fs, defaultDB)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %s\n", printable(err.Error()))
		return exitUsage
	}
	if f.resume == "" {
		warnUnfinishable(stderr, p)
	}
	rec, code := startRecording(dbDir, fs.Changed("db"), args, stderr)
	if rec == nil {
		return code
	}
	stdout = rec.tee(stdout)
	opt := f.options()
	restore := limitMemory(opt.MaxMemory)
	defer restore()
	start := time.Now()
	res := f.check(ctx, target, opt, stderr)
	if userError(res.Err) {
		printUserError(stderr, res.Err)
		return exitUsage
	}
	if res.Err != nil {
		fmt.Fprintf(stderr, "mc check: %s\nThis is a bug in mc; please report it with the command line above.\n", printableLines(res.Err.Error()))
		return exitInternal
	}
	f.explainDefaultMemory(&res, stderr)
	warnNeverFired(stderr, res.Coverage)
	var shortest *checker.Result
	if f.shortest {
		opt, finish := f.withProgress(f.options(), stderr)
		shortest = checker.Shortest(ctx, target, &res, opt)
		finish()
		if shortest != nil && shortest.Err != nil {
			fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", shortest.Err)
			return exitInternal
		}
	}
	recordedRun := &res
	if shortest != nil && shortest.Failure() != nil {
		recordedRun = shortest
	}
	if m := res.WrongMeasure; m != nil {
		fmt.Fprintf(stderr, "mc check: %s\n", wrongMeasureLine(m))
	}
	if f.JSON {
		if err := writeJSON(stdout, &res, shortest); err != nil {
			fmt.Fprintf(stderr, "mc check: %v\n", err)
			return exitInternal
		}
		writeResumeNote(stderr, fs, &f, &res)
	} else {
		writeHuman(stdout, &res, shortest)
		writeResumeNote(stdout, fs, &f, &res)
	}
	code = verdictExit(res.Verdict)
	if code != exitIncomplete {
		rec.recordResult(target, f.specHash, &res, recordedRun, stderr)
	}
	if f.traceOut != "" {
		if err := writeTraceOut(target, recordedRun, f.traceOut, stderr); err != nil {
			return outputFailed(stderr, "check", "--trace-out", f.traceOut, err)
		}
	}
	if err := writeJUnit(f.junit, "check", []junit.Suite{checkSuite(&res, shortest, start)}); err != nil {
		return outputFailed(stderr, "check", "--junit", f.junit, err)
	}
	return code
}

// verdictExit is the exit code of a run with verdict v.
func verdictExit(v checker.Verdict) int {
	switch v {
	case checker.Pass:
		return exitPass
	case checker.Fail:
		return exitFail
	}
	return exitIncomplete
}

// userError says whether err, from a run, is the user's mistake: a
// checkpoint that cannot be resumed, or a directory that cannot be used.
func userError(err error) bool {
	var refused *checker.ResumeRefused
	var unusable *checker.UnusableDir
	return errors.As(err, &refused) || errors.As(err, &unusable)
}

// lookupSpec finds a spec by name: the registry's, or, in the tests that
// check mc's own failures, one that breaks the rules of model.System.
var lookupSpec = specs.Lookup

// check runs target with opt, showing progress if asked.
func (f *checkFlags) check(ctx context.Context, target checker.Target, opt checker.Options, stderr io.Writer) checker.Result {
	opt, finish := f.withProgress(opt, stderr)
	defer finish()
	return target.Check(ctx, opt)
}

// withProgress is opt showing the run's progress if asked, and the
// function that ends the display once the run is over.
func (f *checkFlags) withProgress(opt checker.Options, stderr io.Writer) (checker.Options, func()) {
	progress, every := newProgress(stderr, f.progress, f.JSON)
	if progress == nil {
		return opt, func() {}
	}
	opt.Progress, opt.ProgressEvery = progress.report, every
	return opt, progress.finish
}

// target resolves the spec and its parameters: from SPEC and the flags, or,
// for --resume, from the checkpoint, with what the resume refuses.
func (f *checkFlags) target(fs *pflag.FlagSet) (specs.Entry, model.Params, []string, error) {
	if f.resume != "" {
		return f.resumed(fs)
	}
	if fs.NArg() != 1 {
		return specs.Entry{}, model.Params{}, nil, fmt.Errorf("want exactly one spec name (see mc list)")
	}
	entry, p, err := f.specParams(fs, fs.Arg(0))
	if err == nil {
		err = f.hashSpec(entry)
	}
	return entry, p, nil, err
}

// hashSpec records the spec's hash, which checkpoints carry. A spec the
// registry cannot hash is mc's fault, never the user's.
func (f *checkFlags) hashSpec(e specs.Entry) error {
	var err error
	if f.specHash, err = e.Hash(); err != nil {
		return &mcBug{err}
	}
	return nil
}

// mcBug is an error that is mc's fault: exit 4.
type mcBug struct{ err error }

func (b *mcBug) Error() string { return b.err.Error() }

// printUserError prints a user's mistake that the run found: for a
// checkpoint of another run, each difference on a line of its own.
func printUserError(stderr io.Writer, err error) {
	var refused *checker.ResumeRefused
	if !errors.As(err, &refused) || len(refused.Reasons) == 0 {
		fmt.Fprintf(stderr, "mc check: %s\n", printableLines(err.Error()))
		return
	}
	for _, why := range refused.Reasons {
		fmt.Fprintf(stderr, "mc check: %s\n", printable(why))
	}
}

// specParams looks spec up and reads its parameters from the flags.
func (f *checkFlags) specParams(fs *pflag.FlagSet, spec string) (specs.Entry, model.Params, error) {
	entry, err := lookupSpec(spec)
	if err != nil {
		return entry, model.Params{}, err
	}
	if err := entry.Takes.Refuse(entry.Name, fs.Changed); err != nil {
		return entry, model.Params{}, err
	}
	p, err := f.Flags.Params(fs, entry.Info)
	if err == nil {
		err = f.resolveFairness(fs, entry)
	}
	return entry, p, err
}

// limitMemory makes the Go runtime collect garbage harder as the process
// nears limit (as GOMEMLIMIT would), so that the run stops for memory only
// when what it holds is live; it returns a function restoring the previous
// limit. A limit of 0 changes nothing.
func limitMemory(limit int64) func() {
	if limit <= 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// resolveFairness reads --fair, or takes the spec's default.
func (f *checkFlags) resolveFairness(fs *pflag.FlagSet, e specs.Entry) error {
	f.fairness = e.Defaults.Fair
	if fs.Lookup("fair") == nil || !fs.Changed("fair") {
		return nil
	}
	var err error
	if f.fairness, err = model.ParseFairness(f.fair); err != nil {
		return fmt.Errorf("--fair: %v", err)
	}
	return nil
}

// options turns the flags into the checker's options.
func (f *checkFlags) options() checker.Options {
	opt := checker.Options{MaxStates: f.maxStates, Timeout: f.timeout, Workers: f.workers, Exact: f.exact, Safety: f.Safety,
		Checkpoint: f.checkpoint, CheckpointEvery: f.every, Fair: f.fairness, Reduce: f.por, SpecHash: f.specHash, KeepDir: f.keepDir}
	if f.store == "disk" {
		opt.Disk = f.dir
	}
	if f.resume != "" {
		opt.Checkpoint, opt.Resume = f.resume, true
	}
	opt.MaxMemory, _ = memlimit.Parse(f.maxMemory) // checked by checkLimits
	if opt.MaxMemory == 0 {
		opt.MaxMemory = f.defaultMemory
	}
	opt.Continue, opt.NoDeadlock, opt.FailVacuous = f.Continue, f.noDeadlock, f.FailVacuous
	opt.MaxDepth, opt.Coverage = f.maxDepth, f.coverage
	return opt
}

// explainDefaultMemory says, when the default memory limit stopped the run,
// where that limit comes from and how to set another.
func (f *checkFlags) explainDefaultMemory(res *checker.Result, stderr io.Writer) {
	if f.defaultMemory > 0 && strings.Contains(res.Reason, "memory limit") {
		fmt.Fprintf(stderr, "mc check: the memory limit %s is the default, 7/8 of the memory available when mc started; --max-memory sets another\n",
			memlimit.Format(f.defaultMemory))
	}
}

func (f *checkFlags) checkLimits(fs *pflag.FlagSet) error {
	if fs.Changed("max-states") && f.maxStates <= 0 {
		return fmt.Errorf("--max-states must be positive, got %d", f.maxStates)
	}
	switch {
	case f.store != "memory" && f.store != "disk":
		return fmt.Errorf("--store must be memory or disk, got %q", f.store)
	case f.store == "disk" && f.dir == "" && f.resume == "":
		return fmt.Errorf("--store disk needs --dir")
	case f.store == "memory" && fs.Changed("dir"):
		return fmt.Errorf("--dir goes with --store disk")
	case f.store == "memory" && f.keepDir:
		return fmt.Errorf("--keep-dir goes with --store disk")
	case f.exact && f.store == "disk":
		return fmt.Errorf("--exact keeps full states in memory; it cannot be combined with --store disk")
	case f.exact && (f.checkpoint != "" || f.resume != ""):
		return fmt.Errorf("--exact keeps full states in memory, which checkpoints do not hold; it cannot be combined with --checkpoint or --resume")
	case f.every < 0:
		return fmt.Errorf("--checkpoint-every must not be negative, got %s", f.every)
	case f.resume != "" && f.checkpoint != "" && f.checkpoint != f.resume:
		return fmt.Errorf("--resume %s continues the checkpoint there; --checkpoint %s names another", f.resume, f.checkpoint)
	}
	if f.workers <= 0 {
		return fmt.Errorf("--workers must be positive, got %d", f.workers)
	}
	if fs.Changed("max-memory") {
		if _, err := memlimit.Flag(f.maxMemory, memoryFloor()); err != nil {
			return err
		}
	}
	if fs.Changed("max-depth") && f.maxDepth <= 0 {
		return fmt.Errorf("--max-depth must be positive, got %d", f.maxDepth)
	}
	if err := checker.CanBound(f.options()); err != nil {
		return err
	}
	if f.shortest && !f.por {
		return fmt.Errorf("--shortest goes with --por: without reduction every counterexample is already a shortest one")
	}
	if fs.Changed("timeout") && f.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, got %s", f.timeout)
	}
	return nil
}
