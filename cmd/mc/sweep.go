package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"mc/checker"
	"mc/model"
	"mc/specs"
	"mc/specs/specdef"
	"mc/sweep"
	"mc/tracefile"
)

type sweepFlags struct {
	db                    dbFlags
	ns, ids, variant, out string
	json                  bool
	drift                 int
	maxStates             int64
	timeout               time.Duration
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
	fs.StringVar(&f.ns, "n", "", "ring sizes, e.g. 3..7 or 5 (default: the range results/ covers)")
	fs.StringVar(&f.ids, "ids", "all", "all (one arrangement per symmetry class) or one arrangement a,b,c")
	fs.StringVar(&f.variant, "variant", "", "spec variant (default: the spec's first)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per n")
	fs.StringVar(&f.out, "out", "", "write <name>.json, <name>.md, <name>.svg and the witness runs (traces/) to this directory; with SPEC all, also README.md and worst.svg")
	fs.IntVar(&f.drift, "drift", 0, "clock-based specs: the drift bound (see mc check --help)")
	fs.Int64Var(&f.maxStates, "max-states", 0, "give up on an arrangement whose graph exceeds this many states")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up on an arrangement whose graph takes longer than this")
	fs.IntVar(&f.sample, "sample", 0, "sample R random runs per size (mc simulate --random-ids) instead of every class; --n a..b then means a, 2a, 4a, … ≤ b (default "+defaultSampledSizes+")")
	fs.Uint64Var(&f.seed, "seed", 1, "with --sample: the seed; the same seed gives the same table whatever --workers")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "with --sample: runs made at once")
	f.db.add(fs)
	f.db.addOff(fs)
	f.db.addFresh(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mc sweep: want exactly one SPEC or all (see mc sweep --help)")
		return exitUsage
	}
	if fs.Changed("sample") {
		return runSampled(ctx, fs, &f, stdout, stderr)
	}
	for _, name := range sampledOnly {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "mc sweep: --%s applies only with --sample\n", name)
			return exitUsage
		}
	}
	dbDir, err := f.db.path(fs)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitUsage
	}
	opt := sweep.CostOptions{MaxStates: f.maxStates, Timeout: f.timeout}
	if fs.Arg(0) == "all" {
		if f.ns != "" || f.ids != "all" || f.variant != "" || f.drift != 0 {
			fmt.Fprintln(stderr, "mc sweep all: takes only --out, --json, --max-states, --timeout and the run store's flags")
			return exitUsage
		}
		dir := f.out
		if dir == "" {
			dir = "results"
		}
		return withClasses(dbDir, "sweep", f.db.fresh, stderr, func(c classes) int {
			return sweepAll(ctx, dir, opt, c, f.json, stdout, stderr)
		})
	}
	e, err := specs.Lookup(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitUsage
	}
	if e.Anonymous() {
		fmt.Fprintf(stderr, "mc sweep: spec %s gives its processes no ids; there are no arrangements to sweep\n", e.Name)
		return exitUsage
	}
	if err := e.Takes.Refuse(e.Name, fs.Changed); err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitUsage
	}
	name := profileName(e.Name, f.variant, e.Variants)
	if f.drift > 0 {
		if _, ok := sweepOf(e, fmt.Sprintf("%s-drift%d", name, f.drift)); ok {
			name = fmt.Sprintf("%s-drift%d", name, f.drift)
		}
	}
	prof, known := sweepOf(e, name)
	if !known {
		prof = specdef.Profile{Counted: "all messages", Formula: "— (no bound recorded)"}
	}
	var ns []int
	if f.ns == "" {
		if !known {
			fmt.Fprintf(stderr, "mc sweep: %s has no default range; give --n\n", name)
			return exitUsage
		}
		ns = prof.Ns
	} else if ns, err = parseRange(f.ns); err != nil {
		fmt.Fprintf(stderr, "mc sweep: --n: %v\n", err)
		return exitUsage
	}
	cfg := sweep.Config{Spec: e, Profile: prof, Variant: f.variant, Drift: f.drift, Opt: opt}
	if f.ids != "all" {
		if cfg.IDs, err = parseInts(f.ids); err != nil {
			fmt.Fprintf(stderr, "mc sweep: --ids: %v\n", err)
			return exitUsage
		}
		if len(ns) != 1 || ns[0] != len(cfg.IDs) {
			if f.ns != "" {
				fmt.Fprintf(stderr, "mc sweep: --ids gives %d ids; --n must be that one size\n", len(cfg.IDs))
				return exitUsage
			}
			ns = []int{len(cfg.IDs)}
		}
	}
	return withClasses(dbDir, "sweep", f.db.fresh, stderr, func(c classes) int {
		return sweepSpec(ctx, name, c.config(cfg), ns, &f, stdout, stderr)
	})
}

// sweepSpec sweeps one spec and prints its table.
func sweepSpec(ctx context.Context, name string, cfg sweep.Config, ns []int, f *sweepFlags, stdout, stderr io.Writer) int {
	t, code := sweepTable(ctx, name, cfg, ns, stderr)
	if t == nil {
		return code
	}
	if f.json {
		if err := writeSweepJSON(stdout, t); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
	} else {
		sweep.WriteText(stdout, t)
	}
	if f.out != "" {
		if err := writeTable(f.out, t); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
	}
	return exitPass
}

// writeSweepJSON prints one JSON object per row of t, one a line, each
// with mc's version and the schema (docs/json.md).
func writeSweepJSON(w io.Writer, t *sweep.Table) error {
	enc := json.NewEncoder(w)
	for _, r := range t.Rows {
		row := struct {
			jsonStamp
			*sweep.Row
		}{stamp(), r}
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return nil
}

// profileName is the key of a spec's sweep profile: the spec, or
// spec-variant for a variant other than the first.
func profileName(spec, variant string, variants []model.Variant) string {
	if variant == "" || (len(variants) > 0 && variants[0].Name == variant) {
		return spec
	}
	return spec + "-" + variant
}

// sweepOf is e's profile name, if it has one.
func sweepOf(e specs.Entry, name string) (specdef.Profile, bool) {
	for _, p := range e.Sweeps {
		if p.Name == name {
			return p, true
		}
	}
	return specdef.Profile{}, false
}

// sweepTable runs cfg for every n in ns; on failure it returns nil and the
// exit code, having said why in one line. With a run store, it says on
// stderr how many classes it reused and how many it computed.
func sweepTable(ctx context.Context, name string, cfg sweep.Config, ns []int, stderr io.Writer) (*sweep.Table, int) {
	t := sweep.NewTable(name, cfg)
	var tally classTally
	for _, n := range ns {
		row, err := sweep.Run(ctx, cfg, n)
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

// writeTable writes dir/<name>.json (Table.Summarized), dir/<name>.md,
// dir/<name>.svg and the witness runs.
func writeTable(dir string, t *sweep.Table) error {
	if err := os.MkdirAll(filepath.Join(dir, "traces"), 0o755); err != nil {
		return err
	}
	var js, md, svg strings.Builder
	if err := writeIndented(&js, t.Summarized()); err != nil {
		return err
	}
	sweep.WriteMarkdown(&md, t)
	t.WriteSVG(&svg)
	for ext, text := range map[string]string{"json": js.String(), "md": md.String(), "svg": svg.String()} {
		if err := os.WriteFile(filepath.Join(dir, t.Name+"."+ext), []byte(text), 0o644); err != nil {
			return err
		}
	}
	e, _ := specs.Lookup(t.Spec)
	for _, r := range t.Rows {
		if r.Cycles > 0 {
			continue
		}
		for _, w := range []struct {
			what string
			ids  []int
			tr   *checker.Trace
		}{{"worst", r.WorstIDs, r.WorstRun()}, {"best", r.BestIDs, r.BestRun()}} {
			p := model.Params{N: r.N, IDs: w.ids, Variant: t.Variant, Drift: t.Drift, Claims: t.Claims}
			tgt, err := e.Build(p)
			if err != nil {
				return err
			}
			pr := &checker.PropResult{Name: w.what + "-messages", Doc: fmt.Sprintf("a run with the %s number of %s at n=%d", w.what, t.Counted, r.N), Kind: model.Witness, Verdict: checker.Pass, Trace: w.tr}
			f, err := tracefile.Build(tgt, checker.MeaningOf(tgt.Info(), checker.Options{Fair: e.Defaults.Fair}), pr, version())
			if err != nil {
				return err
			}
			f.Property.Kind = tracefile.CostRun
			if err := writeTraceFile(filepath.Join(dir, "traces", fmt.Sprintf("%s-n%d-%s.json", t.Name, r.N, w.what)), f); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseRange reads "3..7" or "5".
func parseRange(s string) ([]int, error) {
	lo, hi, found := strings.Cut(s, "..")
	a, err := strconv.Atoi(lo)
	if err != nil {
		return nil, fmt.Errorf("%q is not a size or a range a..b", s)
	}
	b := a
	if found {
		if b, err = strconv.Atoi(hi); err != nil {
			return nil, fmt.Errorf("%q is not a range a..b", s)
		}
	}
	if a < 2 || b < a || b > 9 {
		return nil, fmt.Errorf("range %d..%d: want 2 ≤ a ≤ b ≤ 9", a, b)
	}
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out, nil
}

// parseInts reads "3,1,2".
func parseInts(s string) ([]int, error) {
	var out []int
	for _, x := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("%q is not a list of integers", s)
		}
		out = append(out, v)
	}
	return out, nil
}
