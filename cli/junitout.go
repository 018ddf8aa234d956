package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/tracefile"
)

// addJUnitFlag adds --junit, which mc check, mc ci and mc simulate share.
func addJUnitFlag(fs *pflag.FlagSet, path *string) {
	fs.StringVar(path, "junit", "", "also write the outcome as a JUnit XML report to this file, for CI (see docs/ci.md)")
}

// checkJUnitOut refuses, before the run, a --junit path that cannot be
// written; "" (no report) is fine.
func checkJUnitOut(path string) error {
	if path == "" {
		return nil
	}
	return checkOutFile("--junit", path)
}

// writeJUnit writes the report of mc cmd's suites to path, as every file
// mc writes is written (atomicfile.Write); "" writes nothing.
func writeJUnit(path, cmd string, suites []junit.Suite) error {
	if path == "" {
		return nil
	}
	r := &junit.Report{Name: "mc " + cmd, Suites: suites}
	return atomicfile.Write(path, func(w io.Writer) error { return junit.Write(w, r) })
}

// Why a property has no verdict, as the message of its skipped element.
const (
	stoppedAtFailure = "not checked: the run stopped at the first failure (--continue checks every property)"
	safetyOnly       = "not checked: --safety checks safety properties only"
)

// checkSuite is the suite of one run of mc check: a case per property,
// passed, failed with its counterexample as the text mc check prints,
// skipped when the run stopped at the first failure or --safety left it
// out, and an error when a limit left it undecided (an incomplete run, or
// a failing one under --continue that a limit then stopped). shortest is
// --shortest's re-run, as for writeHuman.
func checkSuite(r *checker.Result, shortest *checker.Result, start time.Time) junit.Suite {
	class := runName(r.Spec, r.Variant, r.Params)
	s := junit.NewSuite("mc check "+class, start)
	s.Elapsed = r.Elapsed
	s.Set("spec", r.Spec)
	s.Set("variant", r.Variant)
	s.Set("params", shownParams(r.Spec, r.Params).String())
	s.Set("verdict", string(r.Verdict))
	s.Set("states", fmt.Sprint(r.States))
	s.Set("transitions", fmt.Sprint(r.Transitions))
	if r.Reason != "" {
		s.Set("reason", r.Reason)
	}
	failure := r.Failure()
	for i := range r.Props {
		p := &r.Props[i]
		c := junit.Case{Name: p.Name, Classname: class}
		switch {
		case p.Verdict == checker.Pass && p.Vacuous:
			c.SystemOut = verdictDetail(p)
		case p.Verdict == checker.Pass:
		case p.Verdict == checker.Fail && p.Vacuous:
			c.Failure = &junit.Outcome{Message: failedMessage(p), Type: "vacuous"}
		case p.Verdict == checker.Fail:
			var text strings.Builder
			if p == failure {
				writeFailure(&text, p, r.Reduced, shortest)
			} else {
				writeFailure(&text, p, r.Reduced, nil)
			}
			c.Failure = &junit.Outcome{Message: failedMessage(p), Type: p.Kind.String(), Text: strings.TrimLeft(text.String(), "\n")}
		case p.Verdict == checker.Incomplete || r.Verdict == checker.Incomplete:
			c.Error = &junit.Outcome{Message: fmt.Sprintf("incomplete: %s; the property is not decided", r.Reason), Type: "incomplete"}
		default:
			c.Skipped = &junit.Outcome{Message: stoppedAtFailure}
			if p.HeldOn != "" {
				c.SystemOut = verdictDetail(p) // what it held on before the run stopped
			}
		}
		s.Add(c)
	}
	for _, name := range r.SkippedLiveness {
		s.Add(junit.Case{Name: name, Classname: class, Skipped: &junit.Outcome{Message: safetyOnly}})
	}
	return s
}

// runName names a run of mc check as its header does: spec, variant and
// parameters.
func runName(spec, variant string, p model.Params) string {
	return fmt.Sprintf("%s (variant %s) %s", spec, variant, shownParams(spec, p).String())
}

// failedMessage is the one line that says how p failed.
func failedMessage(p *checker.PropResult) string {
	if p.Vacuous {
		return fmt.Sprintf("%s %s passed vacuously, a failure under --fail-vacuous: %s (%s)", p.Kind, p.Name, p.Unmet, p.Doc)
	}
	if p.Trace == nil {
		return fmt.Sprintf("%s %s failed: no reachable state satisfies it (%s)", p.Kind, p.Name, p.Doc)
	}
	return fmt.Sprintf("%s %s violated (%s)", p.Kind, p.Name, p.Doc)
}

// uncheckedSuite is the suite of an arrangement class mc check --all-ids
// did not run: every property of props skipped, after a failure, or in
// error, when a limit stopped the run (why says which).
func uncheckedSuite(r *checker.Result, ids []int, props []string, why string, failed bool, start time.Time) junit.Suite {
	p := r.Params
	p.IDs = ids
	class := runName(r.Spec, r.Variant, p)
	s := junit.NewSuite("mc check "+class, start)
	for _, name := range props {
		c := junit.Case{Name: name, Classname: class}
		if failed {
			c.Skipped = &junit.Outcome{Message: why}
		} else {
			c.Error = &junit.Outcome{Message: why, Type: "incomplete"}
		}
		s.Add(c)
	}
	return s
}

// propNames are the names of r's properties, those --safety left out too.
func propNames(r *checker.Result) []string {
	var out []string
	for _, p := range r.Props {
		out = append(out, p.Name)
	}
	return append(out, r.SkippedLiveness...)
}

// simulateSuite is the suite of mc simulate's runs: a case per property,
// failed by the first failing run with that run as mc trace prints it
// (failedRun, nil for a run cut at the step limit), in error for the
// properties no run broke when a limit stopped the simulation, skipped
// for those the runs after the failure were left to check and for a
// witness no run reached, and otherwise passed: sampled evidence, not a
// proof, as each case's output says.
func simulateSuite(o *simulateOutput, rep *simulate.Report, failedRun *tracefile.File, start time.Time) junit.Suite {
	class := fmt.Sprintf("%s (variant %s) n=%d seed %d runs %d..%d", o.Spec, o.Variant, o.N, o.Seed, o.FirstRun, o.FirstRun+o.Runs-1)
	s := junit.NewSuite("mc simulate "+class, start)
	s.Elapsed = time.Since(start)
	s.Set("spec", o.Spec)
	s.Set("variant", o.Variant)
	s.Set("verdict", o.Verdict)
	s.Set("runs_done", fmt.Sprint(o.Done))
	witnessed := map[string]int{}
	for _, w := range o.Witnesses {
		witnessed[w.Name] = w.Runs
	}
	for _, p := range rep.Info.Props {
		c := junit.Case{Name: p.Name, Classname: class}
		switch {
		case o.Failure != nil && o.Failure.Property == p.Name:
			c.Failure = &junit.Outcome{Message: o.Summary, Type: o.Failure.Kind, Text: simulatedFailure(o, failedRun)}
		case p.Kind == model.Witness && witnessed[p.Name] > 0:
			c.SystemOut = fmt.Sprintf("held in %d of %d runs", witnessed[p.Name], o.Done)
		case rep.Stopped != "" || (p.Name == rep.Info.Terminates && rep.NotTerminated > 0):
			c.Error = &junit.Outcome{Message: "incomplete: " + o.Summary, Type: "incomplete"}
		case p.Kind == model.Witness:
			c.Skipped = &junit.Outcome{Message: fmt.Sprintf("not reached: held in none of %d runs (sampled: the runs may miss it)", o.Done)}
		case o.Done < o.Runs:
			c.Skipped = &junit.Outcome{Message: fmt.Sprintf("checked in %d of %d runs only: the simulation stopped at the first failing run", o.Done, o.Runs)}
		default:
			c.SystemOut = fmt.Sprintf("no violation in %d runs (sampled: evidence, not a proof)", o.Done)
		}
		s.Add(c)
	}
	return s
}

// simulatedFailure is the text of mc simulate's failure: how to make the
// run again, then the run as mc trace prints it, if it was made again.
func simulatedFailure(o *simulateOutput, failedRun *tracefile.File) string {
	var text strings.Builder
	fmt.Fprintf(&text, "reproduce: %s\n", o.Failure.Reproduce)
	if failedRun == nil {
		return text.String()
	}
	text.WriteString("\n")
	writeTraceText(&text, failedRun, false)
	return text.String()
}
