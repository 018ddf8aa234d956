package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
)

// writeHuman prints the summary, the per-property verdicts and, on failure,
// the shortest failing trace, then the verdict; after a reduced run, the
// failure of shortest, its unreduced re-run (--shortest), if not nil.
func writeHuman(w io.Writer, r *checker.Result, shortest *checker.Result) {
	writeRun(w, r, shortest)
	writeVerdict(w, r)
}

// writeRun is writeHuman without the verdict line, which mc check --all-ids
// prints once for all its runs.
func writeRun(w io.Writer, r *checker.Result, shortest *checker.Result) {
	fmt.Fprintf(w, "mc check %s\n", runName(r.Spec, r.Variant, r.Params))
	if r.Reduced {
		fmt.Fprintf(w, "  %d states stored, %d transitions explored, %d terminal, depth %d\n", r.States, r.Transitions, r.Terminal, r.Depth)
		fmt.Fprintln(w, "  reduced: partial-order reduction (--por) stored only the states that the verdicts need, not every reachable state")
	} else {
		fmt.Fprintf(w, "  %d distinct states, %d transitions, %d terminal, depth %d\n", r.States, r.Transitions, r.Terminal, r.Depth)
	}
	if r.ReductionNote != "" {
		fmt.Fprintf(w, "  reduction: %s\n", r.ReductionNote)
	}
	fmt.Fprintf(w, "  %s\n", elapsedLine(r))
	fmt.Fprintf(w, "  %s\n", memoryLine(r, memlimit.Peak()))
	if r.Exact {
		fmt.Fprintln(w, "  exact: full states stored, no fingerprint collision possible")
	} else {
		fmt.Fprintf(w, "  fingerprint collision probability ≤ %.1e (states × lookups / 2^64)\n", r.CollisionBound())
	}
	if l := r.Liveness; l != nil {
		fmt.Fprintf(w, "  %s\n", livenessLine(l))
	}
	if m := r.WrongMeasure; m != nil {
		fmt.Fprintf(w, "  %s\n", wrongMeasureLine(m))
	}
	if len(r.SkippedMeasures) > 0 {
		fmt.Fprintf(w, "  --por: not measured, as they do not declare what they read (%s)\n", strings.Join(r.SkippedMeasures, ", "))
	}
	if len(r.SkippedLiveness) > 0 {
		fmt.Fprintf(w, "  --safety: liveness not checked (%s)\n", strings.Join(r.SkippedLiveness, ", "))
	}
	if r.Meaning.NoDeadlock {
		fmt.Fprintln(w, "  --no-deadlock: terminal states not checked for deadlock")
	}
	fmt.Fprintln(w, "properties:")
	var unchecked, vacuous []string
	for _, p := range r.Props {
		fmt.Fprintf(w, "  %-10s %-24s %-10s %s — %s\n", verdictText(&p), p.Name, p.Kind, p.Ref, p.Doc)
		if line := verdictDetail(&p); line != "" {
			fmt.Fprintf(w, "  %-10s %s\n", "", line)
		}
		if p.Verdict == checker.NotChecked && p.HeldOn == "" {
			unchecked = append(unchecked, p.Name)
		}
		if p.Vacuous {
			vacuous = append(vacuous, p.Name)
		}
	}
	if len(vacuous) > 0 && !r.Meaning.FailVacuous {
		fmt.Fprintf(w, "  vacuous (the situation they speak of never arose, so this run did not test them): %s; --fail-vacuous makes that a failure\n", strings.Join(vacuous, ", "))
	}
	switch {
	case len(unchecked) > 0 && r.DepthLimited:
		fmt.Fprintf(w, "  not checked (liveness is not decided on a graph cut at depth %d): %s\n", r.Meaning.MaxDepth, strings.Join(unchecked, ", "))
	case len(unchecked) > 0:
		fmt.Fprintf(w, "  not checked (stopped at the first violation): %s; --continue checks every property to the end\n", strings.Join(unchecked, ", "))
	}
	if len(r.Measures) > 0 {
		fmt.Fprintln(w, "measures (maximum over every state explored):")
		for _, m := range r.Measures {
			at := "="
			if !m.Complete {
				at = "≥" // a lower bound: not every state was explored
			}
			fmt.Fprintf(w, "  %-10s %s %-6d %s — %s\n", m.Name, at, m.Max, m.Ref, m.Doc)
		}
	}
	writeCoverage(w, r.Coverage)
	if f := r.Failure(); f != nil {
		writeFailure(w, f, r.Reduced, shortest)
	}
}

// writeVerdict prints the run's verdict line.
func writeVerdict(w io.Writer, r *checker.Result) {
	switch {
	case r.Verdict == checker.Incomplete && r.DepthLimited:
		fmt.Fprintf(w, "verdict: incomplete: no violation up to depth %d (--max-depth); deeper states exist and were not explored: %d states explored; this is not a pass\n", r.Meaning.MaxDepth, r.States)
	case r.Verdict == checker.Incomplete:
		fmt.Fprintf(w, "verdict: incomplete (%s): %d states explored; this is not a pass\n", r.Reason, r.States)
	case r.Verdict == checker.Fail && r.Reason != "":
		fmt.Fprintf(w, "verdict: fail (and the run stopped early: %s)\n", r.Reason)
	case r.Verdict == checker.Fail && r.Failure().Vacuous:
		fmt.Fprintln(w, "verdict: fail (--fail-vacuous: a property passed vacuously)")
	case r.Verdict == checker.Fail && r.StoppedAtViolation:
		fmt.Fprintln(w, "verdict: fail (stopped at the first violation; --continue checks every property to the end)")
	case r.Verdict == checker.Fail:
		fmt.Fprintln(w, "verdict: fail")
	default:
		fmt.Fprintln(w, "verdict: pass")
	}
}

// verdictText is a property's verdict as the summary prints it: a
// vacuous pass is "vacuous", and a property that held on what the run
// explored before it stopped at another's violation is "held"
// (verdictDetail says on what).
func verdictText(p *checker.PropResult) string {
	switch {
	case p.Vacuous && p.Verdict == checker.Pass:
		return "vacuous"
	case p.Verdict == checker.NotChecked && p.HeldOn != "":
		return "held"
	case p.Verdict == checker.NotChecked:
		return "not checked"
	}
	return string(p.Verdict)
}

// verdictDetail is the line under a property's verdict that qualifies it:
// what never happened in a vacuous pass, what a property held on when the
// run stopped at another's violation; "" for none.
func verdictDetail(p *checker.PropResult) string {
	switch {
	case p.Vacuous && p.Verdict == checker.Pass:
		return fmt.Sprintf("pass (vacuous: %s)", p.Unmet)
	case p.Vacuous:
		return fmt.Sprintf("fail (vacuous: %s; --fail-vacuous)", p.Unmet)
	case p.HeldOn != "":
		return fmt.Sprintf("held on %s; not decided, as the run stopped at the first violation", p.HeldOn)
	}
	return ""
}

// elapsedLine gives the run's time, and each phase's when liveness was
// checked.
func elapsedLine(r *checker.Result) string {
	workers := "workers"
	if r.Workers == 1 {
		workers = "worker"
	}
	safety := fmt.Sprintf("%.0f states/s with %d %s", r.StatesPerSecond(), r.Workers, workers)
	if r.Liveness == nil {
		return fmt.Sprintf("elapsed %s, %s", r.Elapsed.Round(time.Microsecond), safety)
	}
	return fmt.Sprintf("elapsed %s: safety %s (%s), liveness %s", r.Elapsed.Round(time.Microsecond),
		r.SafetyElapsed.Round(time.Microsecond), safety, r.Liveness.Elapsed.Round(time.Microsecond))
}

// perStateFrom is the fewest states for which the summary divides the peak
// memory by the states: below it the process's own few MiB (runtime,
// binary, buffers) would make the figure say nothing of a state's cost.
const perStateFrom = 100_000

// memoryLine gives the peak memory, what the checker's structures hold and
// the limit.
func memoryLine(r *checker.Result, peak int64) string {
	line := fmt.Sprintf("memory: peak %s", memlimit.Format(peak))
	if r.States >= perStateFrom {
		line += fmt.Sprintf(", %.1f B/state", float64(peak)/float64(r.States))
	}
	line += fmt.Sprintf(", everything included (visited set and trace log %s)", memlimit.Format(r.MemoryBytes))
	if r.DiskBytes > 0 {
		line += fmt.Sprintf("; on disk %s", memlimit.Format(r.DiskBytes))
	}
	if r.MemoryLimit > 0 {
		line += fmt.Sprintf("; limit %s", memlimit.Format(r.MemoryLimit))
	}
	return line
}

// livenessLine describes the liveness check. Only a whole graph's cycles
// are counted, so only then does it say whether every run is finite; a
// check a limit stopped says so.
func livenessLine(l *checker.LivenessStats) string {
	switch l.Method {
	case checker.ByMeasure:
		return fmt.Sprintf("liveness under fairness %s decided by the termination measure: it decreases on every transition, so every run is finite; no graph stored, %s",
			l.Fairness, measureMarks(l))
	case checker.ByMeasureReduced:
		return fmt.Sprintf("liveness under fairness %s decided by the termination measure on the reduced graph: it decreases on every transition the reduced run computes, so every run, reduced or not, is finite; no graph stored, %s",
			l.Fairness, measureMarks(l))
	}
	from := "recorded by the search"
	if l.Rebuilt != "" {
		from = fmt.Sprintf("built by a second exploration (%s)", l.Rebuilt)
	}
	graph := fmt.Sprintf("decided by the state graph, %s: graph of %d states, %d transitions", from, l.States, l.Transitions)
	switch {
	case !l.Complete:
		graph += " so far"
	case l.Cycles > 0:
		graph += fmt.Sprintf(", %d strongly connected components with a cycle, the largest of %d states", l.Cycles, l.LargestCycle)
	default:
		graph += ", no cycle: every run is finite"
	}
	line := fmt.Sprintf("liveness under fairness %s: ", l.Fairness)
	if l.Reason != "" {
		line += fmt.Sprintf("incomplete, %s; ", l.Reason)
	}
	mem := fmt.Sprintf("%s (%.1f B/transition)", memlimit.Format(l.Bytes), l.BytesPerTransition())
	if l.Spilled {
		mem += fmt.Sprintf(" in memory, edges on disk %s", memlimit.Format(l.DiskBytes))
	}
	if l.ParallelBytes > 0 {
		mem += fmt.Sprintf(", and up to %s for the analyses run beside it by %d workers", memlimit.Format(l.ParallelBytes), l.Workers)
	}
	return line + fmt.Sprintf("%s; %s, %s", graph, mem, l.Elapsed.Round(time.Microsecond))
}

// measureMarks says how a termination measure decided liveness: at the
// terminal states, or by the marks of a second search (the marks phase).
func measureMarks(l *checker.LivenessStats) string {
	if !l.Marked {
		return fmt.Sprintf("every terminal state meets every goal, so no marks were needed, %s", l.Elapsed.Round(time.Microsecond))
	}
	why := ""
	if l.Reason != "" {
		why = fmt.Sprintf("incomplete, %s; ", l.Reason)
	}
	return fmt.Sprintf("a terminal state leaves a goal unmet, so a second search marked the states that reach one: %smarks %s, %s", why, memlimit.Format(l.Bytes), l.Elapsed.Round(time.Microsecond))
}

// wrongMeasureLine reports the transition that broke the spec's
// termination measure.
func wrongMeasureLine(m *checker.WrongMeasure) string {
	last := m.Trace.Steps[len(m.Trace.Steps)-1]
	return fmt.Sprintf("wrong termination measure: %v → %v on step %d (%s) of the run in the JSON's wrong_measure; liveness decided by the state graph instead",
		m.Before, m.After, len(m.Trace.Steps), last.Label)
}

// shownParams is p, the parameters of a run of spec, as mc shows them:
// without ids for a spec whose processes have none (the mutual-exclusion
// specs are built with placeholder ids, which nothing reads).
func shownParams(spec string, p model.Params) *model.Params {
	if e, err := specs.Lookup(spec); err == nil && e.Anonymous() {
		p.IDs = nil
	}
	return &p
}

// awaited marks the state of a leads-to counterexample where P holds and
// after which Q never does.
const awaited = "   ← from here on the goal is awaited and never holds"

// writeFailure prints f's trace. After a reduced run it says that the trace
// need not be shortest, and prints instead the failure that shortest, the
// unreduced re-run, found, if it found one.
func writeFailure(w io.Writer, f *checker.PropResult, reduced bool, shortest *checker.Result) {
	if shortest != nil {
		if g := shortest.Failure(); g != nil {
			fmt.Fprintf(w, "\n--shortest: re-run without reduction (%d states explored, breadth-first): a shortest counterexample follows\n", shortest.States)
			writeFailure(w, g, false, nil)
			return
		}
		fmt.Fprintf(w, "\n--shortest: the re-run without reduction stopped (%s) before it reached a failure; the reduced run's trace follows, which need not be shortest\n", shortest.Reason)
	} else if reduced && f.Trace != nil {
		fmt.Fprintln(w, "\nfound under partial-order reduction: a real run, replayed, but not necessarily a shortest one (--shortest re-runs without reduction for one)")
	}
	t := f.Trace
	if t == nil {
		fmt.Fprintf(w, "\n%s\n", failedMessage(f))
		return
	}
	what := fmt.Sprintf("%s %s violated", f.Kind, f.Name)
	shape := fmt.Sprintf("trace, %d steps", len(t.Steps))
	switch {
	case f.Kind.Liveness() && t.LoopStart != nil:
		shape = fmt.Sprintf("lasso: %d steps to the loop, then steps %d–%d repeat forever", *t.LoopStart, *t.LoopStart+1, len(t.Steps))
	case f.Kind.Liveness():
		shape = fmt.Sprintf("a run of %d steps that stops (no action enabled) before the goal holds", len(t.Steps))
	case t.Deadlock && f.Name == model.Deadlock:
		what = "deadlock: a terminal state that the spec does not declare a proper end"
	case t.Deadlock:
		what = fmt.Sprintf("deadlock: a terminal state violates end property %s", f.Name)
	}
	fmt.Fprintf(w, "\n%s (%s)\n%s:\n", what, f.Doc, shape)
	fmt.Fprintf(w, "  0. initial state %d", t.Init)
	if t.From != nil && *t.From == 0 {
		fmt.Fprint(w, awaited)
	}
	fmt.Fprintln(w)
	for _, v := range t.Start {
		fmt.Fprintf(w, "       %s = %s\n", v.Name, v.Value)
	}
	for i, s := range t.Steps {
		if t.LoopStart != nil && *t.LoopStart == i {
			fmt.Fprintf(w, "  ---- loop: from the state above, steps %d–%d repeat forever\n", i+1, len(t.Steps))
		}
		fmt.Fprintf(w, "  %d. %s", i+1, s.Label)
		if t.From != nil && *t.From == i+1 {
			fmt.Fprint(w, awaited)
		}
		fmt.Fprintln(w)
		for _, v := range s.Changes {
			fmt.Fprintf(w, "       %s = %s\n", v.Name, v.Value)
		}
	}
	switch {
	case t.LoopStart != nil:
		fmt.Fprintf(w, "  ---- back to the state after step %d; the loop repeats forever\n", *t.LoopStart)
	case t.Deadlock:
		fmt.Fprintln(w, "  no action is enabled in this state")
	}
	fmt.Fprintln(w)
}

// writeJSON prints r as mc check --json's object (package checkjson).
func writeJSON(w io.Writer, r *checker.Result, shortest *checker.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(checkjson.Of(r, shortest, shownParams(r.Spec, r.Params).IDs, memlimit.Peak()))
}
