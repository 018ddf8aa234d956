package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/paramflags"
)

// checkFlags are mc-beam check's flags: mc check's spec parameters, and
// where the search runs.
type checkFlags struct {
	spec     paramflags.Flags
	safety   bool
	json     bool
	traceOut string
	shards   int
	work     string
	beam     beamFlags
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
// and the run stops at the end of the level where a property first fails.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newFlagSet("check", "SPEC [flags]", stdout)
	f.spec.Add(fs)
	fs.BoolVar(&f.safety, "safety", false, "check the safety properties only; mc-beam refuses liveness (see docs/scale-out.md)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the summary")
	fs.StringVar(&f.traceOut, "trace-out", "", "write the failing run to this trace file (see mc trace)")
	fs.IntVar(&f.shards, "shards", 0, "partitions of the state space by fingerprint, each level's units of work (default 1 on prism, whose bundles run one process's worth of work anyway, 64 on a cluster)")
	fs.StringVar(&f.work, "work", "", "directory (any Beam filesystem: a local path, gs://…) for the shard files (default: a temporary directory, removed)")
	f.beam.add(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	t, run, err := f.target(fs)
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
	res, err := search(ctx, &f.beam, t, system{Run: run}, work, f.shards)
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
	if f.json {
		err = res.writeJSON(stdout, t.Info(), f.beam.runner, f.shards)
	} else {
		res.writeText(stdout, t.Info(), f.beam.runner, f.shards)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam check: %v\n", err)
		return exitInternal
	}
	if res.failure() != nil {
		return exitFail
	}
	return exitPass
}

// target builds the system the flags give and the run's meaning (what a
// trace file records), refusing what mc-beam cannot check: all before
// the run starts.
func (f *checkFlags) target(fs *pflag.FlagSet) (checker.Target, runinfo.Meaning, error) {
	args := positional(fs)
	if len(args) != 1 {
		return nil, runinfo.Meaning{}, fmt.Errorf("want exactly one SPEC (see mc-beam check --help)")
	}
	switch {
	case fs.Changed("shards") && f.shards < 1:
		return nil, runinfo.Meaning{}, fmt.Errorf("--shards must be positive, got %d", f.shards)
	case f.shards > maxShards:
		return nil, runinfo.Meaning{}, fmt.Errorf("--shards must be at most %d (every level writes and reads a file per shard), got %d", maxShards, f.shards)
	case !fs.Changed("shards") && f.beam.runner == "prism":
		f.shards = 1
	case !fs.Changed("shards"):
		f.shards = 64
	}
	e, err := specs.Lookup(args[0])
	if err != nil {
		return nil, runinfo.Meaning{}, err
	}
	if err := e.Takes.Refuse(e.Name, fs.Changed); err != nil {
		return nil, runinfo.Meaning{}, err
	}
	f.spec.Largest = checker.MaxProcs
	p, err := f.spec.Params(fs, e.Info)
	if err != nil {
		return nil, runinfo.Meaning{}, err
	}
	t, err := e.Build(p)
	if err != nil {
		return nil, runinfo.Meaning{}, err
	}
	if !f.safety {
		for _, pr := range t.Props() {
			if pr.Kind.Liveness() {
				return nil, runinfo.Meaning{}, fmt.Errorf("%s has liveness properties (%s), which need the whole state graph that a level-by-level search does not keep; give --safety to check its safety properties, or use mc check", e.Name, pr.Name)
			}
		}
	}
	if f.traceOut != "" {
		if st, err := os.Stat(filepath.Dir(f.traceOut)); err != nil || !st.IsDir() {
			return nil, runinfo.Meaning{}, fmt.Errorf("--trace-out: %s is not a directory", filepath.Dir(f.traceOut))
		}
	}
	return t, checker.MeaningOf(t.Info(), checker.Options{Fair: e.Defaults.Fair, Safety: f.safety}), nil
}

// result is what the search found.
type result struct {
	states, transitions, terminal int
	// depth is the last level that holds a state; levels = depth+1.
	depth int
	// stopped says the search stopped at the end of the level where a
	// property first failed.
	stopped bool
	props   []checker.PropInfo
	// failed maps each failed property to where it failed; witnessed,
	// each witness that holds somewhere.
	failed    map[string]finding
	witnessed map[string]bool
	// failedAt is the level whose expansion found the failures.
	failedAt int
	elapsed  time.Duration
}

// search explores t's states level by level. Level 0, the initial
// states, is written by the driver; each further level by a pipeline.
func search(ctx context.Context, b *beamFlags, t checker.Target, sys system, work string, shards int) (*result, error) {
	res := &result{props: t.Props(), failed: map[string]finding{}, witnessed: map[string]bool{}}
	level0 := make([][]record, shards)
	seen := map[uint64]bool{}
	for i, s := range t.Initial() {
		fp := s.Key()
		if seen[fp] {
			continue
		}
		seen[fp] = true
		sh := shardOf(fp, shards)
		level0[sh] = append(level0[sh], record{FP: fp, Action: model.Action{Rule: -1, Choice: i}, Enc: s.Encoding()})
	}
	for sh, rs := range level0 {
		if err := writeRecords(ctx, statesPath(work, 0, sh), rs); err != nil {
			return nil, err
		}
		fps := make([]uint64, len(rs))
		for i, r := range rs {
			fps[i] = r.FP
		}
		slices.Sort(fps)
		if err := writeFingerprints(ctx, visitedPath(work, 0, sh), fps); err != nil {
			return nil, err
		}
	}
	res.states = len(seen)
	for level := 0; ; level++ {
		if err := b.execute(ctx, levelPipeline(sys, work, level, shards)); err != nil {
			return nil, fmt.Errorf("level %d: pipeline: %v", level, err)
		}
		fresh := 0
		for sh := 0; sh < shards; sh++ {
			var e expandSummary
			if err := readJSON(ctx, expandPath(work, level, sh), &e); err != nil {
				return nil, err
			}
			res.add(e)
			var d dedupSummary
			if err := readJSON(ctx, dedupPath(work, level+1, sh), &d); err != nil {
				return nil, err
			}
			fresh += d.New
		}
		res.states += fresh
		if len(res.failed) > 0 {
			// The search stops with level expanded, its successors counted
			// (mc check's depth and states); a level with nothing new
			// after it ends the search all the same, and the verdicts of
			// the properties that held are then final.
			res.stopped, res.failedAt = fresh > 0, level
			return res, nil
		}
		if fresh == 0 {
			return res, nil
		}
		res.depth = level + 1
		if err := removeLevel(ctx, work, level, shards); err != nil {
			return nil, err
		}
	}
}

// add takes in one shard's expansion: for each property, the failure at
// the least fingerprint, so that the trace does not depend on the order
// the shards are read in.
func (r *result) add(e expandSummary) {
	r.transitions += e.Transitions
	r.terminal += e.Terminal
	for _, f := range e.Findings {
		if old, ok := r.failed[f.Prop]; !ok || f.FP < old.FP || (f.FP == old.FP && actionLess(f.Step, old.Step)) {
			r.failed[f.Prop] = f
		}
	}
	for name := range e.Witnessed {
		r.witnessed[name] = true
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

// verdict is property p's: mc check's for the same run.
func (r *result) verdict(p checker.PropInfo) checker.Verdict {
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
		f, ok := r.failed[p.Name]
		if !ok {
			continue
		}
		if best == nil || (f.Step == nil && r.failed[best.Name].Step != nil) {
			best = p
		}
	}
	return best
}

// runVerdict is the run's verdict.
func (r *result) runVerdict() checker.Verdict {
	for _, p := range r.props {
		if r.verdict(p) == checker.Fail {
			return checker.Fail
		}
	}
	return checker.Pass
}

func (r *result) writeText(w io.Writer, info checker.Info, runner string, shards int) {
	fmt.Fprintf(w, "%s %s n=%d ids=%s: %s\n", info.Spec, info.Variant, info.Params.N, model.FormatInts(info.Params.IDs), r.runVerdict())
	fmt.Fprintf(w, "%d states, %d transitions, %d terminal, depth %d (%d levels, %d shards, runner %s, %s)\n",
		r.states, r.transitions, r.terminal, r.depth, r.depth+1, shards, runner, r.elapsed.Round(time.Millisecond))
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
	for _, p := range r.props {
		if p.Kind.Liveness() {
			continue
		}
		verdict := string(r.verdict(p))
		if r.verdict(p) == checker.NotChecked {
			verdict = "not checked"
		}
		fmt.Fprintf(w, "  %-10s %-24s %s\n", verdict, p.Name, p.Kind)
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
	Stopped     bool              `json:"stopped_at_violation,omitempty"`
	Unchecked   []string          `json:"liveness_unchecked,omitempty"`
	Properties  map[string]string `json:"properties"`
	Runner      string            `json:"runner"`
	Shards      int               `json:"shards"`
	Levels      int               `json:"levels"`
}

func (r *result) writeJSON(w io.Writer, info checker.Info, runner string, shards int) error {
	out := checkJSON{Stamp: runinfo.ThisStamp(), Spec: info.Spec, Variant: info.Variant, N: info.Params.N, IDs: info.Params.IDs,
		Param: runinfo.ParamsOf(info.Params).Param, Verdict: r.runVerdict(), States: r.states, Transitions: r.transitions, Terminal: r.terminal, Depth: r.depth,
		ElapsedMS: float64(r.elapsed.Microseconds()) / 1000, Stopped: r.stopped, Properties: map[string]string{},
		Runner: runner, Shards: shards, Levels: r.depth + 1}
	for _, p := range r.props {
		if p.Kind.Liveness() {
			out.Unchecked = append(out.Unchecked, p.Name)
			continue
		}
		out.Properties[p.Name] = string(r.verdict(p))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
