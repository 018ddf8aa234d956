package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/allids"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

// runAllIDs is mc check --all-ids: one arrangement of the ids 1..n per
// symmetry class of the spec (rotations, and reflections where the spec
// declares them), checked by package allids's loop, each class in this
// process.
func runAllIDs(ctx context.Context, fs *pflag.FlagSet, f *checkFlags, args []string, stdout, stderr io.Writer) int {
	if err := allids.Refuse(fs.Changed); err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
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
	if err == nil {
		err = allids.CheckN(p.N)
	}
	var dbDir string
	if err == nil {
		dbDir, err = f.db.Path(fs, defaultDB)
	}
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
	var failed *checker.Result
	var failedTarget checker.Target
	var meaning runinfo.Meaning
	var suites []junit.Suite
	var last checker.Result
	defer limitMemory(f.options().MaxMemory)()
	sum, err := allids.Check(entry.Name, p.N, entry.Symmetry, f.Continue, func(cl ring.ArrangementClass) (allids.Outcome, error) {
		p.IDs = cl.Rep
		target, err := entry.Build(p)
		if err != nil {
			return allids.Outcome{}, usageError{err}
		}
		start := time.Now()
		r := target.Check(ctx, f.options())
		if r.Err != nil {
			return allids.Outcome{}, fmt.Errorf("ids %s: %v", model.FormatInts(cl.Rep), r.Err)
		}
		meaning = r.Meaning
		suite := checkSuite(&r, nil, start)
		suite.Set("class_size", fmt.Sprint(cl.Size))
		suites, last = append(suites, suite), r
		if r.Verdict == checker.Fail && failed == nil {
			failed, failedTarget = &r, target
		}
		var vacuous []string
		for _, p := range r.Props {
			if p.Vacuous {
				vacuous = append(vacuous, p.Name)
			}
		}
		return allids.Outcome{Variant: r.Variant, Verdict: r.Verdict, Reason: r.Reason, States: r.States, Transitions: r.Transitions, Reduced: r.Reduced,
			Vacuous: vacuous}, nil
	})
	if usage := (usageError{}); errors.As(err, &usage) {
		fmt.Fprintf(stderr, "mc check: %v\n", usage.err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", err)
		return exitInternal
	}
	why := fmt.Sprintf("not checked: the run stopped (%s) before this arrangement class", sum.LastReason)
	if sum.StoppedAtViolation {
		why = "not checked: the run stopped at the first failing arrangement (--continue checks every class)"
	}
	for _, cl := range sum.Unchecked {
		suite := uncheckedSuite(&last, cl.Rep, propNames(&last), why, sum.StoppedAtViolation, time.Now())
		suite.Set("class_size", fmt.Sprint(cl.Size))
		suites = append(suites, suite)
	}
	if f.JSON {
		sum.WriteJSON(stdout)
	} else {
		sum.WriteText(stdout, "mc check", func(w io.Writer) { writeRun(w, failed, nil) })
	}
	code = verdictExit(sum.Verdict)
	if code != exitIncomplete {
		rec.recordAllIDs(meaning, f.specHash, sum.Verdict, sum.States, sum.Transitions, failedTarget, failed, stderr)
	}
	if err := writeJUnit(f.junit, "check", suites); err != nil {
		return outputFailed(stderr, "check", "--junit", f.junit, err)
	}
	return code
}

// usageError is a user's mistake found while the classes run.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
