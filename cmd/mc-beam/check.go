package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/allids"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/cmdflags"
	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/paramflags"
)

// checkFlags are mc-beam check's flags: mc check's spec parameters and
// the flags it shares with mc check, and where the search runs.
type checkFlags struct {
	spec paramflags.Flags
	cmdflags.Check
	traceOut string
	shards   int
	work     string
	beam     beamFlags
	// timeout and maxMemory are mc check's limits (memory: 0 for none).
	timeout   time.Duration
	maxMemory string
	memory    int64
}

// maxShards bounds --shards: each level writes a file per shard and
// reads them all back, so shards far beyond the workers cost a level
// their files whatever the states (--shards 100000 ran on for a graph
// of 116 states), while a few per worker already balance the work.
const maxShards = 4096

// runCheck is mc-beam check SPEC: the safety properties of mc check,
// decided by a breadth-first search with delayed duplicate detection,
// one Beam pipeline per level (levelPipeline). Its counts, depth and
// verdicts are mc check's: the same states (64-bit fingerprints, as mc
// check's default store), found level by level as mc check finds them,
// and the run stops at the end of the level where a property first fails
// (without --continue). With --all-ids it searches one arrangement per
// symmetry class, as mc check --all-ids does (runAllIDs).
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newFlagSet("check", "SPEC [flags]", stdout)
	f.spec.Add(fs)
	f.AddContinue(fs)
	f.AddFailVacuous(fs)
	f.AddSafety(fs)
	f.AddAllIDs(fs)
	f.AddJSON(fs)
	fs.StringVar(&f.traceOut, "trace-out", "", "write the failing run to this trace file (see mc trace)")
	fs.IntVar(&f.shards, "shards", 0, "partitions of the state space by fingerprint, each level's units of work (default 1 on prism, whose bundles run one process's worth of work anyway, 64 on a cluster)")
	fs.StringVar(&f.work, "work", "", "directory (any Beam filesystem: a local path, gs://…) for the shard files (default: a temporary directory, removed)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop, incomplete (exit 3), after this long, e.g. 30s (default none)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "stop, incomplete (exit 3), once mc-beam holds more memory than this, e.g. 512MiB: on prism the workers' too, on a cluster the driver's only (default GOMEMLIMIT if set, else 7/8 of the memory available at the start: MemAvailable and any cgroup limit)")
	f.beam.add(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	e, p, t, run, err := f.target(fs)
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitUsage
	}
	if code, ok := f.beam.setUp(fs, stderr); !ok {
		return code
	}
	work, done, err := workDir(ctx, f.work)
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: --work: %v\n", err)
		return exitUsage
	}
	defer done()
	start := time.Now()
	if f.AllIDs {
		limited, unlimit := f.limits(ctx)
		defer unlimit()
		return f.runAllIDs(limited, e, p, work, stdout, stderr)
	}
	limited, unlimit := f.limits(ctx)
	res, err := search(limited, &f.beam, t, system{Run: run}, work, f.shards, f.Continue)
	unlimit()
	if err != nil && limited.Err() != nil {
		// A limit or an interrupt: incomplete, with what stopped it.
		fmt.Fprintf(stderr, "mc-beam check: incomplete: %s, expanding level %d (%d states so far)\n", stopCause(limited), res.depth, res.states)
		return exitIncomplete
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitInternal
	}
	res.elapsed = time.Since(start)
	if fail := res.failure(); fail != nil && f.traceOut != "" {
		if err := res.writeTrace(ctx, f.traceOut, t, run, work, f.shards, fail); err != nil {
			fmt.Fprintf(stderr, "mc-beam check: --trace-out: %v\n", err)
			return exitInternal
		}
	}
	if f.JSON {
		err = res.writeJSON(stdout, t.Info(), f.beam.runner, f.shards)
	} else {
		res.writeText(stdout, t.Info(), f.beam.runner, f.shards)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitInternal
	}
	if res.runVerdict() == checker.Fail {
		return exitFail
	}
	return exitPass
}

// limits bounds the search by --timeout and --max-memory, as mc check's
// (the memory watched as mc simulate's and mc sweep's, internal/memlimit):
// either cancels the context it returns, with the reason as its cause.
func (f *checkFlags) limits(ctx context.Context) (context.Context, func()) {
	stopTimer := func() {}
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, f.timeout, fmt.Errorf("timeout after %s", f.timeout))
		stopTimer = cancel
	}
	ctx, unwatch := memlimit.Watch(ctx, f.memory)
	return ctx, func() { unwatch(); stopTimer() }
}

// stopCause says what stopped a search: a limit, or an interrupt.
func stopCause(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause.Error()
	}
	return "interrupted"
}

// runAllIDs is mc-beam check --all-ids: package allids's loop over the
// arrangement classes, each class searched by its own pipelines in a
// directory of its own under work, its output mc check --all-ids's.
func (f *checkFlags) runAllIDs(ctx context.Context, e specs.Entry, p model.Params, work string, stdout, stderr io.Writer) int {
	var failed *result
	var failedInfo checker.Info
	classes := 0
	sum, err := allids.Check(e.Name, p.N, e.Symmetry, f.Continue, func(cl ring.ArrangementClass) (allids.Outcome, error) {
		p.IDs = cl.Rep
		t, err := e.Build(p)
		if err != nil {
			return allids.Outcome{}, fmt.Errorf("ids %s: %v", model.FormatInts(cl.Rep), err)
		}
		start := time.Now()
		res, err := search(ctx, &f.beam, t, system{Run: f.meaning(e, t)}, fmt.Sprintf("%s/class-%d", work, classes), f.shards, f.Continue)
		classes++
		if err != nil {
			return allids.Outcome{}, fmt.Errorf("ids %s: %v", model.FormatInts(cl.Rep), err)
		}
		res.elapsed = time.Since(start)
		o := allids.Outcome{Variant: t.Info().Variant, Verdict: res.runVerdict(), States: int64(res.states), Transitions: int64(res.transitions)}
		for i, p := range res.props {
			if res.vacuous(i) {
				o.Vacuous = append(o.Vacuous, p.Name)
			}
		}
		if o.Verdict == checker.Fail && failed == nil {
			failed, failedInfo = res, t.Info()
		}
		return o, nil
	})
	if err != nil && ctx.Err() != nil {
		// A limit or an interrupt: incomplete, with what stopped it.
		fmt.Fprintf(stderr, "mc-beam check: incomplete: %s, with %d classes checked\n", stopCause(ctx), max(classes-1, 0))
		return exitIncomplete
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitInternal
	}
	if f.JSON {
		err = sum.WriteJSON(stdout)
	} else {
		sum.WriteText(stdout, "mc-beam check", func(w io.Writer) { failed.writeText(w, failedInfo, f.beam.runner, f.shards) })
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitInternal
	}
	if sum.Verdict == checker.Fail {
		return exitFail
	}
	return exitPass
}

// target resolves the spec and its parameters, and builds the system they
// give with the run's meaning (what a trace file records), refusing what
// mc-beam cannot check: all before the run starts. With --all-ids the
// system is the default arrangement's, whose properties every class
// shares.
func (f *checkFlags) target(fs *pflag.FlagSet) (specs.Entry, model.Params, checker.Target, runinfo.Meaning, error) {
	var e specs.Entry
	var p model.Params
	fail := func(err error) (specs.Entry, model.Params, checker.Target, runinfo.Meaning, error) {
		return e, p, nil, runinfo.Meaning{}, err
	}
	args := positional(fs)
	if f.AllIDs {
		if err := allids.Refuse(fs.Changed); err != nil {
			return fail(err)
		}
	}
	if len(args) != 1 {
		return fail(fmt.Errorf("want exactly one SPEC (see mc-beam check --help)"))
	}
	switch {
	case fs.Changed("shards") && f.shards < 1:
		return fail(fmt.Errorf("--shards must be positive, got %d", f.shards))
	case f.shards > maxShards:
		return fail(fmt.Errorf("--shards must be at most %d (every level writes and reads a file per shard), got %d", maxShards, f.shards))
	case !fs.Changed("shards") && f.beam.runner == "prism":
		f.shards = 1
	case !fs.Changed("shards"):
		f.shards = 64
	}
	if fs.Changed("timeout") && f.timeout <= 0 {
		return fail(fmt.Errorf("--timeout must be positive, got %s", f.timeout))
	}
	if fs.Changed("max-memory") {
		var err error
		if f.memory, err = memlimit.Flag(f.maxMemory, memlimit.Floor()); err != nil {
			return fail(err)
		}
	} else if f.memory = memlimit.Default(); f.memory == 0 {
		// A run that outgrows the machine stops, incomplete, before the
		// kernel's OOM killer ends it with nothing said, as mc check's.
		f.memory = memlimit.Environment()
	}
	e, err := specs.Lookup(args[0])
	if err != nil {
		return fail(err)
	}
	if err := e.Takes.Refuse(e.Name, fs.Changed); err != nil {
		return fail(err)
	}
	f.spec.Largest = checker.MaxProcs
	if p, err = f.spec.Params(fs, e.Info); err != nil {
		return fail(err)
	}
	if f.AllIDs {
		if err := allids.CheckN(p.N); err != nil {
			return fail(err)
		}
	}
	t, err := e.Build(p)
	if err != nil {
		return fail(err)
	}
	if !f.Safety {
		for _, pr := range t.Props() {
			if pr.Kind.Liveness() {
				return fail(fmt.Errorf("%s has liveness properties (%s), which need the whole state graph that a level-by-level search does not keep; give --safety to check its safety properties, or use mc check", e.Name, pr.Name))
			}
		}
	}
	if f.traceOut != "" {
		if st, err := os.Stat(filepath.Dir(f.traceOut)); err != nil || !st.IsDir() {
			return fail(fmt.Errorf("--trace-out: %s is not a directory", filepath.Dir(f.traceOut)))
		}
	}
	return e, p, t, f.meaning(e, t), nil
}

// meaning is what a run of t means: what a trace file records, and what
// a worker rebuilds the system from.
func (f *checkFlags) meaning(e specs.Entry, t checker.Target) runinfo.Meaning {
	return checker.MeaningOf(t.Info(), checker.Options{Fair: e.Defaults.Fair, Safety: f.Safety, Continue: f.Continue, FailVacuous: f.FailVacuous})
}

// result is what the search found.
type result struct {
	states, transitions, terminal int
	// depth is the last level expanded; levels the levels whose states
	// are counted: depth+1, or depth+2 when the search stopped at a
	// violation, with the states the last expansion found (mc check's
	// states and depth).
	depth, levels int
	// stopped says the search stopped at the end of the level where a
	// property first failed.
	stopped bool
	props   []checker.PropInfo
	// failed maps each failed property to where it first failed, and
	// failedAt to the level of the state where it failed (for a step
	// property, the state the failing step leaves); witnessed, each
	// witness that holds somewhere.
	failed    map[string]finding
	failedAt  map[string]int
	witnessed map[string]bool
	// met is the properties whose situation the search met (vacuity.go);
	// failVacuous is --fail-vacuous.
	met         situations
	failVacuous bool
	elapsed     time.Duration
}

// search explores t's states level by level. Level 0, the initial
// states, is written and judged by the driver; each further level by a
// pipeline. Without keepGoing (--continue) it stops where mc check
// stops: at the end of the level whose expansion found the first
// violation, an invariant failing in a state it found (judged as it is
// found, as mc check judges a state it admits), a step property failing
// on a step it took, or an end property failing in a terminal state it
// expanded; an invariant failing in an initial state stops it before
// level 0 is expanded. It returns what it found so far even with an
// error: a limit that cancels ctx stops it, and the caller says where.
func search(ctx context.Context, b *beamFlags, t checker.Target, sys system, work string, shards int, keepGoing bool) (*result, error) {
	res := &result{props: t.Props(), failed: map[string]finding{}, failedAt: map[string]int{}, witnessed: map[string]bool{}, failVacuous: sys.Run.FailVacuous}
	level0 := make([][]record, shards)
	seen := map[uint64]bool{}
	var initial judged
	for i, s := range t.Initial() {
		fp := s.Key()
		if seen[fp] {
			continue
		}
		seen[fp] = true
		sh := shardOf(fp, shards)
		r := record{FP: fp, Action: model.Action{Rule: -1, Choice: i}, Enc: s.Encoding()}
		if err := initial.judge(t, r); err != nil {
			return res, err
		}
		level0[sh] = append(level0[sh], r)
	}
	for sh, rs := range level0 {
		if err := writeRecords(ctx, statesPath(work, 0, sh), rs); err != nil {
			return res, err
		}
		fps := make([]uint64, len(rs))
		for i, r := range rs {
			fps[i] = r.FP
		}
		slices.Sort(fps)
		if err := writeFingerprints(ctx, visitedPath(work, 0, sh), fps); err != nil {
			return res, err
		}
	}
	res.states, res.levels = len(seen), 1
	res.addJudged(initial, 0)
	if len(res.failed) > 0 && !keepGoing {
		res.stopped = res.states > 0
		return res, nil
	}
	for level := 0; ; level++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if err := b.execute(ctx, levelPipeline(sys, work, level, shards)); err != nil {
			return res, fmt.Errorf("level %d: pipeline: %v", level, err)
		}
		fresh := 0
		for sh := 0; sh < shards; sh++ {
			var e expandSummary
			if err := readJSON(ctx, expandPath(work, level, sh), &e); err != nil {
				return res, err
			}
			res.addExpansion(e, level)
			var d dedupSummary
			if err := readJSON(ctx, dedupPath(work, level+1, sh), &d); err != nil {
				return res, err
			}
			res.addJudged(d.judged, level+1)
			fresh += d.New
		}
		res.states += fresh
		if fresh == 0 {
			return res, nil
		}
		res.levels++
		if len(res.failed) > 0 && !keepGoing {
			// The search stops with level expanded and its new states
			// counted and judged (mc check's depth and states). Had
			// nothing new followed, the search would have ended all the
			// same, and the verdicts of the properties that held would
			// be final.
			res.stopped = true
			return res, nil
		}
		res.depth = level + 1
		if err := removeLevel(ctx, work, level, shards); err != nil {
			return res, err
		}
	}
}

// addExpansion takes in one shard's expansion of level: its counts and
// the end and step properties that failed there.
func (r *result) addExpansion(e expandSummary, level int) {
	r.transitions += e.Transitions
	r.terminal += e.Terminal
	r.addFindings(e.Findings, level)
	r.met.or(e.Met)
}

// addJudged takes in what the invariants and witnesses said of some
// states of level.
func (r *result) addJudged(j judged, level int) {
	r.addFindings(j.Findings, level)
	for name := range j.Witnessed {
		r.witnessed[name] = true
	}
	r.met.or(j.Met)
}

// addFindings keeps, for each property, the failure at the least
// fingerprint of the first level where it fails, so that the trace does
// not depend on the order the shards are read in.
func (r *result) addFindings(fs []finding, level int) {
	for _, f := range fs {
		old, ok := r.failed[f.Prop]
		if ok && r.failedAt[f.Prop] < level {
			continue
		}
		if !ok || f.FP < old.FP || (f.FP == old.FP && actionLess(f.Step, old.Step)) {
			r.failed[f.Prop], r.failedAt[f.Prop] = f, level
		}
	}
}

func actionLess(a, b *model.Action) bool {
	switch {
	case a == nil || b == nil:
		return a == nil && b != nil
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	case a.Proc != b.Proc:
		return a.Proc < b.Proc
	}
	return a.Choice < b.Choice
}

// verdict is property i's: mc check's for the same run, a vacuous pass
// a failure under --fail-vacuous.
func (r *result) verdict(i int) checker.Verdict {
	if r.failVacuous && r.vacuous(i) {
		return checker.Fail
	}
	return r.decided(r.props[i])
}

// decided is property p's verdict as the search decided it, vacuous or
// not.
func (r *result) decided(p checker.PropInfo) checker.Verdict {
	switch {
	case p.Kind.Liveness():
		return checker.NotChecked
	case p.Kind == model.Witness && r.witnessed[p.Name]:
		return checker.Pass
	}
	if _, ok := r.failed[p.Name]; ok {
		return checker.Fail
	}
	if r.stopped {
		return checker.NotChecked
	}
	if p.Kind == model.Witness {
		return checker.Fail
	}
	return checker.Pass
}

// failure is the failed property whose counterexample is shortest (a
// step property's is one step longer than its state's), first in the
// spec's order among equals, as mc check's Result.Failure picks; nil
// when none failed.
func (r *result) failure() *checker.PropInfo {
	var best *checker.PropInfo
	for i := range r.props {
		p := &r.props[i]
		if _, ok := r.failed[p.Name]; !ok {
			continue
		}
		if best == nil || r.traceLen(p.Name) < r.traceLen(best.Name) {
			best = p
		}
	}
	return best
}

// traceLen is the number of steps of failed property name's
// counterexample: to its state at level failedAt, and a step property's
// failing step.
func (r *result) traceLen(name string) int {
	if r.failed[name].Step != nil {
		return r.failedAt[name] + 1
	}
	return r.failedAt[name]
}

// runVerdict is the run's verdict.
func (r *result) runVerdict() checker.Verdict {
	for i := range r.props {
		if r.verdict(i) == checker.Fail {
			return checker.Fail
		}
	}
	return checker.Pass
}

func (r *result) writeText(w io.Writer, info checker.Info, runner string, shards int) {
	fmt.Fprintf(w, "%s %s n=%d ids=%s: %s\n", info.Spec, info.Variant, info.Params.N, model.FormatInts(info.Params.IDs), r.runVerdict())
	fmt.Fprintf(w, "%d states, %d transitions, %d terminal, depth %d (%d levels, %d shards, runner %s, %s)\n",
		r.states, r.transitions, r.terminal, r.depth, r.levels, shards, runner, r.elapsed.Round(time.Millisecond))
	// As mc check --safety prints them: the liveness properties named on
	// one line, the others verdict, name, kind.
	var liveness []string
	for _, p := range r.props {
		if p.Kind.Liveness() {
			liveness = append(liveness, p.Name)
		}
	}
	if len(liveness) > 0 {
		fmt.Fprintf(w, "  --safety: liveness not checked (%s)\n", strings.Join(liveness, ", "))
	}
	var vacuous []string
	for i, p := range r.props {
		if p.Kind.Liveness() {
			continue
		}
		verdict := string(r.verdict(i))
		switch {
		case r.verdict(i) == checker.NotChecked:
			verdict = "not checked"
		case r.vacuous(i) && r.verdict(i) == checker.Pass:
			verdict = "vacuous"
		}
		fmt.Fprintf(w, "  %-10s %-24s %s\n", verdict, p.Name, p.Kind)
		switch {
		case r.vacuous(i) && r.verdict(i) == checker.Pass:
			fmt.Fprintf(w, "  %-10s pass (vacuous: %s)\n", "", p.Unmet)
			vacuous = append(vacuous, p.Name)
		case r.vacuous(i):
			fmt.Fprintf(w, "  %-10s fail (vacuous: %s; --fail-vacuous)\n", "", p.Unmet)
		}
	}
	if len(vacuous) > 0 {
		fmt.Fprintf(w, "  vacuous (the situation they speak of never arose, so this run did not test them): %s; --fail-vacuous makes that a failure\n", strings.Join(vacuous, ", "))
	}
}

// checkJSON is mc-beam check --json's object: mc check --json's fields
// of the same name and meaning (docs/json.md), and where it ran.
type checkJSON struct {
	runinfo.Stamp
	Spec        string            `json:"spec"`
	Variant     string            `json:"variant"`
	N           int               `json:"n"`
	IDs         []int             `json:"ids"`
	Param       map[string]int    `json:"param,omitempty"`
	Verdict     checker.Verdict   `json:"verdict"`
	States      int               `json:"states"`
	Transitions int               `json:"transitions"`
	Terminal    int               `json:"terminal"`
	Depth       int               `json:"depth"`
	ElapsedMS   float64           `json:"elapsed_ms"`
	Stopped     bool              `json:"stopped_at_first_violation,omitempty"`
	Unchecked   []string          `json:"liveness_unchecked,omitempty"`
	FailVacuous bool              `json:"fail_vacuous,omitempty"`
	Properties  map[string]string `json:"properties"`
	Details     []checkjson.Prop  `json:"property_details"`
	Runner      string            `json:"runner"`
	Shards      int               `json:"shards"`
	Levels      int               `json:"levels"`
}

func (r *result) writeJSON(w io.Writer, info checker.Info, runner string, shards int) error {
	out := checkJSON{Stamp: runinfo.ThisStamp(), Spec: info.Spec, Variant: info.Variant, N: info.Params.N, IDs: info.Params.IDs,
		Param: runinfo.ParamsOf(info.Params).Param, Verdict: r.runVerdict(), States: r.states, Transitions: r.transitions, Terminal: r.terminal, Depth: r.depth,
		ElapsedMS: float64(r.elapsed.Microseconds()) / 1000, Stopped: r.stopped, Properties: map[string]string{},
		Runner: runner, Shards: shards, Levels: r.levels}
	out.FailVacuous = r.failVacuous
	for i, p := range r.props {
		if p.Kind.Liveness() {
			out.Unchecked = append(out.Unchecked, p.Name)
			continue
		}
		out.Properties[p.Name] = string(r.verdict(i))
		d := checkjson.Prop{Name: p.Name, Kind: p.Kind.String(), Ref: p.Ref, Doc: p.Doc, Verdict: r.verdict(i), Vacuous: r.vacuous(i)}
		if d.Vacuous {
			d.Unmet = p.Unmet
		}
		out.Details = append(out.Details, d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
