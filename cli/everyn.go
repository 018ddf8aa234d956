package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/tokentemplate"
	"github.com/ringcheck/mc/tokentemplate/everyn"
)

// everyNTakes are the flags --every-n combines with: the limits of each
// size's run, the output's form, the trace file (the failure, at the size
// where it was found) and the run store. Every other flag fixes something
// the theorem's sizes replace (--n), names one run's checkpoint or working
// files, or changes the semantics the theorem's fairness fixes (--fair,
// --por, --safety).
var everyNTakes = map[string]bool{"every-n": true, "max-states": true, "max-memory": true, "timeout": true,
	"workers": true, "exact": true, "json": true, "progress": true, "junit": true, "trace-out": true, "db": true, "no-db": true}

// runEveryN decides a template spec's properties for every ring size
// (package everyn), or refuses in one line, exit 2, naming the hypothesis
// of the cutoff theorems that fails.
func runEveryN(ctx context.Context, fs *pflag.FlagSet, f *checkFlags, args []string, stdout, stderr io.Writer) int {
	refused := ""
	fs.Visit(func(fl *pflag.Flag) {
		switch {
		case refused != "" || everyNTakes[fl.Name]:
		case fl.Name == "n":
			refused = "--every-n checks the ring sizes its theorem names (2 up to the cutoff); drop --n"
		case fl.Name == "fair":
			refused = "--every-n decides liveness under the theorems' fairness (every process receives the token infinitely often); drop --fair"
		default:
			refused = fmt.Sprintf("--every-n cannot be combined with --%s (it takes --max-states, --max-memory, --timeout, --workers, --exact, --json, --junit, --progress, --trace-out, --db and --no-db)", fl.Name)
		}
	})
	if refused == "" && fs.NArg() != 1 {
		refused = "want exactly one spec name (see mc list)"
	}
	if refused != "" {
		fmt.Fprintf(stderr, "mc check: %s\n", refused)
		return exitUsage
	}
	entry, p, err := f.specParams(fs, fs.Arg(0))
	if err == nil {
		err = f.checkLimits(fs)
	}
	if err == nil {
		err = checkJUnitOut(f.junit)
	}
	if err == nil && f.traceOut != "" {
		err = checkTraceOut(f.traceOut)
	}
	var dbDir string
	if err == nil {
		dbDir, err = f.db.Path(fs, defaultDB)
	}
	if err == nil {
		err = f.hashSpec(entry)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %s\n", printable(err.Error()))
		return exitUsage
	}
	if p.Variant == "" {
		p.Variant = entry.Variants[0].Name // a template is its spec's one variant
	}
	if entry.Template == nil {
		fmt.Fprintf(stderr, "mc check: --every-n: spec %s: no cutoff theorem applies: %s (docs/every-n.md)\n", entry.Name, everyn.Refusal(entry.Name))
		return exitUsage
	}
	if _, err := tokentemplate.CutoffOf(entry.Template); err != nil { // refused before any run: a hypothesis fails
		fmt.Fprintf(stderr, "mc check: --every-n: spec %s: %v\n", entry.Name, err)
		return exitUsage
	}
	rec, code := startRecording(dbDir, fs.Changed("db"), args, stderr)
	if rec == nil {
		return code
	}
	stdout = rec.tee(stdout)
	opt := f.options()
	defer limitMemory(opt.MaxMemory)()
	start := time.Now()
	res, err := everyn.Check(ctx, entry.Template, entry.Build, p, opt)
	if err != nil {
		if res.Cutoff.Size == 0 { // refused: the spec's Build is not its template
			fmt.Fprintf(stderr, "mc check: --every-n: spec %s: %v\n", entry.Name, err)
			return exitUsage
		}
		fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", err)
		return exitInternal
	}
	sum := everyNSummary{jsonStamp: stamp(), Spec: entry.Name, Variant: p.Variant, Cutoff: res.Cutoff.Size, Fragment: res.Cutoff.Fragment,
		Indices: res.Cutoff.Indices, Theorem: res.Cutoff.Theorem, Sizes: res.Sizes, Verdict: res.Verdict, Reason: res.Reason}
	switch res.Verdict {
	case checker.Pass:
		sum.Claim = everyNClaim(res)
	case checker.Fail:
		sum.FailedAt, sum.Property = res.Failed.Params.N, res.Property
		for i := range res.Failed.Props {
			if res.Failed.Props[i].Name == res.Property {
				sum.Trace = res.Failed.Props[i].Trace
			}
		}
	}
	if f.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			fmt.Fprintf(stderr, "mc check: %v\n", err)
			return exitInternal
		}
		return finishEveryN(f, rec, res, sum, start, stderr)
	}
	fmt.Fprintf(stdout, "mc check %s --every-n: cutoff %d, for properties of the form %s\n", entry.Name, res.Cutoff.Size, res.Cutoff.Fragment)
	for _, sz := range res.Sizes {
		fmt.Fprintf(stdout, "  n = %d: %s, %d states, %d transitions\n", sz.N, sz.Verdict, sz.States, sz.Transitions)
	}
	switch res.Verdict {
	case checker.Pass:
		fmt.Fprintln(stdout, sum.Claim)
		fmt.Fprintln(stdout, "  (leads-to on every run on which each process receives the token infinitely often, the theorems' fairness; docs/every-n.md)")
	case checker.Fail:
		fmt.Fprintf(stdout, "fails at n = %d: %s\n\n", sum.FailedAt, sum.Property)
		writeRun(stdout, res.Failed, nil)
	default:
		fmt.Fprintf(stdout, "not decided for every n: %s\n", res.Reason)
	}
	fmt.Fprintf(stdout, "verdict: %s\n", res.Verdict)
	return finishEveryN(f, rec, res, sum, start, stderr)
}

// finishEveryN records a decided run in the run store, writes --trace-out
// and --junit, and gives the run's exit code. The trace is that of the
// last size checked, as mc check writes one: the failure at the size
// where it was found, or, for a pass, a witness's run at the cutoff; its
// file carries that size, so mc trace --replay rebuilds the ring it ran on.
func finishEveryN(f *checkFlags, rec *recorder, res everyn.Result, sum everyNSummary, start time.Time, stderr io.Writer) int {
	code := verdictExit(res.Verdict)
	if code != exitIncomplete {
		rec.recordEveryN(res, f.specHash, stderr)
	}
	if f.traceOut != "" && res.Last != nil {
		if err := writeTraceOut(res.Last, &res.Runs[len(res.Runs)-1], f.traceOut, stderr); err != nil {
			return outputFailed(stderr, "check", "--trace-out", f.traceOut, err)
		}
	}
	if err := writeJUnit(f.junit, "check", everyNSuites(res, sum, start)); err != nil {
		return outputFailed(stderr, "check", "--junit", f.junit, err)
	}
	return code
}

// everyNSuites are the JUnit suites of an --every-n run: one per size
// checked, as mc check's, each with the cutoff and theorem, and the last
// with the run's outcome: the claim of a pass, or the verdict with where
// it failed or why it is incomplete.
func everyNSuites(res everyn.Result, sum everyNSummary, start time.Time) []junit.Suite {
	var suites []junit.Suite
	for i := range res.Runs {
		s := checkSuite(&res.Runs[i], nil, start)
		s.Set("cutoff", fmt.Sprint(res.Cutoff.Size))
		s.Set("theorem", res.Cutoff.Theorem)
		suites = append(suites, s)
	}
	if len(suites) > 0 {
		outcome := sum.Claim
		switch res.Verdict {
		case checker.Fail:
			outcome = fmt.Sprintf("fails at n = %d: %s", sum.FailedAt, sum.Property)
		case checker.Incomplete:
			outcome = "not decided for every n: " + res.Reason
		}
		suites[len(suites)-1].Set("every_n", outcome)
	}
	return suites
}

// everyNClaim is the one line a pass claims, with the theorem that
// carries it to every size.
func everyNClaim(res everyn.Result) string {
	return fmt.Sprintf("holds for every n ≥ 2: cutoff %d by %s, checked at n = 2..%d", res.Cutoff.Size, res.Cutoff.Theorem, res.Cutoff.Size)
}

// everyNSummary is the machine-readable form of an --every-n run
// (docs/json.md).
type everyNSummary struct {
	jsonStamp
	Spec    string `json:"spec"`
	Variant string `json:"variant"`
	// Cutoff is the theorem's cutoff for properties of the form
	// Fragment, of Indices indices: the largest of the spec's.
	Cutoff   int             `json:"cutoff"`
	Fragment string          `json:"fragment"`
	Indices  int             `json:"indices"`
	Theorem  string          `json:"theorem"`
	Sizes    []everyn.Size   `json:"sizes"`
	Verdict  checker.Verdict `json:"verdict"`
	// Claim is the claim of a pass: every n ≥ 2, by Theorem.
	Claim string `json:"claim,omitempty"`
	// FailedAt, Property and Trace are the size, property and
	// counterexample of a failure.
	FailedAt int            `json:"failed_at,omitempty"`
	Property string         `json:"property,omitempty"`
	Trace    *checker.Trace `json:"trace,omitempty"`
	// Reason says why the verdict is incomplete.
	Reason string `json:"reason,omitempty"`
}
