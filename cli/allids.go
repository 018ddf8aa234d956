package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

// allIDsRefusals are the flags that --all-ids cannot be combined with, each
// with the reason: it fixes something the symmetry reduction moves, or it
// names one run's files where --all-ids makes a run per class.
var allIDsRefusals = []struct{ flag, why string }{
	{"ids", "--all-ids checks every arrangement of the ids 1..n; --ids fixes one (drop one of the two)"},
	{"initiators", "the symmetry reduction is sound only with every process an initiator, and rotating the ring moves the initiators"},
	{"orientation", "the symmetry reduction maps an orientation assignment onto its rotations and reflections, so it needs every assignment; --orientation fixes one (check one arrangement with --ids instead)"},
	{"resume", "a checkpoint holds one run, and --all-ids makes one run per arrangement class"},
	{"checkpoint", "a checkpoint holds one run, and --all-ids makes one run per arrangement class"},
	{"store", "--all-ids runs every arrangement class with the memory store; it does not take --store disk"},
	{"dir", "--all-ids runs every arrangement class with the memory store, which needs no --dir"},
	{"trace-out", "a trace file holds one run; rerun the failing arrangement with --ids to record it"},
	{"coverage", "coverage counts the rules of one run, and --all-ids makes one run per arrangement class; check one arrangement with --ids --coverage"},
	{"shortest", "--shortest re-runs one reduced failure; rerun the failing arrangement with --ids --por --shortest"},
}

// maxAllIDsN bounds --all-ids: the arrangements of 1..n are enumerated to
// find the classes, and 10! is 3,628,800 of them, each class a full run.
const maxAllIDsN = 10

// runAllIDs checks one arrangement of the ids 1..n per symmetry class of the
// spec (rotations, and reflections where the spec declares them). The specs
// compare ids only, so 1..n stands for every set of n ids, and a class's
// arrangements have the same runs up to renaming processes, so its
// representative's verdict and counts are the class's.
func runAllIDs(ctx context.Context, fs *pflag.FlagSet, f *checkFlags, args []string, stdout, stderr io.Writer) int {
	for _, r := range allIDsRefusals {
		if fs.Changed(r.flag) {
			fmt.Fprintf(stderr, "mc check: --all-ids cannot be combined with --%s: %s\n", r.flag, r.why)
			return exitUsage
		}
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mc check: want exactly one spec name (see mc list)")
		return exitUsage
	}
	entry, p, err := f.specParams(fs, fs.Arg(0))
	if err == nil {
		err = f.checkLimits(fs)
	}
	if err == nil {
		err = checkJUnitOut(f.junit)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
	}
	if p.N > maxAllIDsN {
		fmt.Fprintf(stderr, "mc check: --all-ids at n=%d would enumerate %d! arrangements; it takes n ≤ %d\n", p.N, p.N, maxAllIDsN)
		return exitUsage
	}
	dbDir, err := f.db.Path(fs, defaultDB)
	if err == nil {
		err = f.hashSpec(entry)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
	}
	rec, code := startRecording(dbDir, fs.Changed("db"), args, stderr)
	if rec == nil {
		return code
	}
	stdout = rec.tee(stdout)
	classes := ring.ArrangementClasses(p.N, entry.Symmetry)
	sum := allIDsSummary{jsonStamp: stamp(), Spec: entry.Name, N: p.N, Symmetry: entry.Symmetry.String(), Classes: len(classes), Verdict: checker.Pass}
	var failed *checker.Result
	var failedTarget checker.Target
	var meaning runinfo.Meaning
	var transitions int64
	var suites []junit.Suite
	var last checker.Result
	defer limitMemory(f.options().MaxMemory)()
	for _, cl := range classes {
		p.IDs = cl.Rep
		target, err := entry.Build(p)
		if err != nil {
			fmt.Fprintf(stderr, "mc check: %v\n", err)
			return exitUsage
		}
		start := time.Now()
		r := target.Check(ctx, f.options())
		if r.Err != nil {
			fmt.Fprintf(stderr, "mc check: ids %s: %v\nThis is a bug in mc; please report it with the command line above.\n", model.FormatInts(cl.Rep), r.Err)
			return exitInternal
		}
		sum.Variant, meaning = r.Variant, r.Meaning
		transitions += r.Transitions
		sum.Arrangements += cl.Size
		sum.States += r.States
		sum.Reduced = sum.Reduced || r.Reduced
		sum.Rows = append(sum.Rows, allIDsRow{IDs: cl.Rep, ClassSize: cl.Size, Verdict: r.Verdict, States: r.States, Transitions: r.Transitions})
		suite := checkSuite(&r, nil, start)
		suite.Set("class_size", fmt.Sprint(cl.Size))
		suites, last = append(suites, suite), r
		switch {
		case r.Verdict == checker.Fail && failed == nil:
			failed, failedTarget, sum.Verdict = &r, target, checker.Fail
		case r.Verdict == checker.Incomplete && sum.Verdict == checker.Pass:
			sum.Verdict = checker.Incomplete
		}
		if r.Verdict == checker.Incomplete && (r.Reason == "interrupted" || strings.Contains(r.Reason, "memory limit")) {
			break
		}
		if r.Verdict == checker.Fail && !f.keepGoing {
			sum.StoppedAtViolation = len(sum.Rows) < len(classes)
			break
		}
	}
	why := fmt.Sprintf("not checked: the run stopped (%s) before this arrangement class", last.Reason)
	if sum.StoppedAtViolation {
		why = "not checked: the run stopped at the first failing arrangement (--continue checks every class)"
	}
	for _, cl := range classes[len(sum.Rows):] {
		suite := uncheckedSuite(&last, cl.Rep, propNames(&last), why, sum.StoppedAtViolation, time.Now())
		suite.Set("class_size", fmt.Sprint(cl.Size))
		suites = append(suites, suite)
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(sum)
	} else {
		stored := "states in all"
		if sum.Reduced {
			stored = "states stored in all (partial-order reduction)"
		}
		fmt.Fprintf(stdout, "mc check %s --all-ids (variant %s) n=%d: %d classes under %s, covering %d of %d arrangements, %d %s\n",
			sum.Spec, sum.Variant, sum.N, sum.Classes, sum.Symmetry, sum.Arrangements, len(ring.Arrangements(p.N)), sum.States, stored)
		for _, row := range sum.Rows {
			if row.Verdict != checker.Pass {
				fmt.Fprintf(stdout, "  %-10s ids %s (class of %d)\n", row.Verdict, model.FormatInts(row.IDs), row.ClassSize)
			}
		}
		if sum.StoppedAtViolation {
			fmt.Fprintf(stdout, "  stopped at the first failing arrangement: %d of %d classes not checked; --continue checks them all\n",
				sum.Classes-len(sum.Rows), sum.Classes)
		}
		if failed != nil {
			fmt.Fprintf(stdout, "\nfirst failing arrangement:\n")
			writeRun(stdout, failed, nil)
		}
		fmt.Fprintf(stdout, "verdict: %s\n", sum.Verdict)
	}
	code = verdictExit(sum.Verdict)
	if code != exitIncomplete {
		rec.recordAllIDs(meaning, f.specHash, sum.Verdict, sum.States, transitions, failedTarget, failed, stderr)
	}
	if err := writeJUnit(f.junit, "check", suites); err != nil {
		return outputFailed(stderr, "check", "--junit", f.junit, err)
	}
	return code
}

// allIDsSummary is the machine-readable form of an --all-ids run
// (docs/json.md).
type allIDsSummary struct {
	jsonStamp
	Spec         string          `json:"spec"`
	Variant      string          `json:"variant"`
	N            int             `json:"n"`
	Symmetry     string          `json:"symmetry"`
	Classes      int             `json:"classes"`
	Arrangements int             `json:"arrangements"`
	States       int64           `json:"states"`
	Reduced      bool            `json:"reduced"`
	Verdict      checker.Verdict `json:"verdict"`
	// StoppedAtViolation marks a run that stopped at the first failing
	// arrangement, leaving classes unchecked (without --continue).
	StoppedAtViolation bool        `json:"stopped_at_first_violation,omitempty"`
	Rows               []allIDsRow `json:"results"`
}

type allIDsRow struct {
	IDs         []int           `json:"ids"`
	ClassSize   int             `json:"class_size"`
	Verdict     checker.Verdict `json:"verdict"`
	States      int64           `json:"states"`
	Transitions int64           `json:"transitions"`
}
