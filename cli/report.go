package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
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
	fmt.Fprintf(w, "  %s\n", memoryLine(r, peakRSS()))
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
	line := fmt.Sprintf("memory: peak %s", bytesize(peak))
	if r.States >= perStateFrom {
		line += fmt.Sprintf(", %.1f B/state", float64(peak)/float64(r.States))
	}
	line += fmt.Sprintf(", everything included (visited set and trace log %s)", bytesize(r.MemoryBytes))
	if r.DiskBytes > 0 {
		line += fmt.Sprintf("; on disk %s", bytesize(r.DiskBytes))
	}
	if r.MemoryLimit > 0 {
		line += fmt.Sprintf("; limit %s", bytesize(r.MemoryLimit))
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
	graph := fmt.Sprintf("decided by the state graph: graph of %d states, %d transitions", l.States, l.Transitions)
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
	mem := fmt.Sprintf("%s (%.1f B/transition)", bytesize(l.Bytes), l.BytesPerTransition())
	if l.Spilled {
		mem += fmt.Sprintf(" in memory, edges on disk %s", bytesize(l.DiskBytes))
	}
	if l.ParallelBytes > 0 {
		mem += fmt.Sprintf(", and up to %s for the analyses run beside it by %d workers", bytesize(l.ParallelBytes), l.Workers)
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
	return fmt.Sprintf("a terminal state leaves a goal unmet, so a second search marked the states that reach one: %smarks %s, %s", why, bytesize(l.Bytes), l.Elapsed.Round(time.Microsecond))
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

// bytesize renders a byte count for a person.
func bytesize(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (b+1023)/1024)
}

// jsonResult is the machine-readable form of a run (docs/json.md).
type jsonResult struct {
	jsonStamp
	Spec         string          `json:"spec"`
	Variant      string          `json:"variant"`
	N            int             `json:"n"`
	IDs          []int           `json:"ids,omitempty"`
	Chan         string          `json:"chan"`
	Cap          int             `json:"cap,omitempty"`
	Initiators   []int           `json:"initiators,omitempty"`
	Links        string          `json:"links,omitempty"`
	Orientation  string          `json:"orientation,omitempty"`
	Orientations int             `json:"orientations,omitempty"`
	Claims       bool            `json:"claims"`
	Drift        int             `json:"drift,omitempty"`
	Bound        int             `json:"bound,omitempty"`
	Param        map[string]int  `json:"param,omitempty"`
	Fair         string          `json:"fair,omitempty"`
	Verdict      checker.Verdict `json:"verdict"`
	Reason       string          `json:"reason,omitempty"`
	States       int64           `json:"states"`
	Transitions  int64           `json:"transitions"`
	Terminal     int64           `json:"terminal"`
	Depth        int             `json:"depth"`
	// MaxDepth is --max-depth's bound, and DepthLimited set when deeper
	// states exist that the run did not explore.
	MaxDepth     int  `json:"max_depth,omitempty"`
	DepthLimited bool `json:"depth_limited,omitempty"`
	// ElapsedMS is the whole run's time; PhaseElapsedMS each phase's:
	// "safety", and "liveness" when liveness was checked.
	ElapsedMS      float64            `json:"elapsed_ms"`
	PhaseElapsedMS map[string]float64 `json:"phase_elapsed_ms"`
	StatesPerSec   float64            `json:"states_per_sec"`
	MemoryBytes    int64              `json:"memory_bytes"`
	PeakRSS        int64              `json:"peak_rss_bytes"`
	DiskBytes      int64              `json:"disk_bytes,omitempty"`
	MemoryLimit    int64              `json:"memory_limit_bytes,omitempty"`
	Workers        int                `json:"workers"`
	Collision      float64            `json:"collision_probability"`
	Liveness       *jsonLiveness      `json:"liveness,omitempty"`
	WrongMeasure   *jsonWrongMeasure  `json:"wrong_measure,omitempty"`
	Unchecked      []string           `json:"liveness_unchecked,omitempty"`
	Unmeasured     []string           `json:"measures_skipped,omitempty"`
	// NoDeadlock is --no-deadlock: the run did not check for deadlock.
	NoDeadlock bool `json:"no_deadlock,omitempty"`
	// FailVacuous is --fail-vacuous: a vacuous pass is a failure.
	FailVacuous bool `json:"fail_vacuous,omitempty"`
	// StoppedAtViolation marks a run that stopped at the first violation:
	// the properties it did not decide are "not-checked".
	StoppedAtViolation bool              `json:"stopped_at_first_violation,omitempty"`
	Properties         map[string]string `json:"properties"`
	Details            []jsonProp        `json:"property_details"`
	Measures           []jsonMeasure     `json:"measures,omitempty"`
	Trace              *checker.Trace    `json:"trace,omitempty"`
	// Reduced marks a run under partial-order reduction: states counts the
	// states stored, and a trace need not be shortest.
	Reduced       bool   `json:"reduced"`
	ReductionNote string `json:"reduction_note,omitempty"`
	// Shortest is the unreduced re-run that --shortest made.
	Shortest *jsonShortest `json:"shortest,omitempty"`
	// Checkpoint is the last checkpoint saved or resumed from; WorkDir is a
	// disk run's working directory, and WorkDirKept why it was kept (empty
	// if it was removed).
	Checkpoint  *jsonCheckpoint `json:"checkpoint,omitempty"`
	WorkDir     string          `json:"work_dir,omitempty"`
	WorkDirKept string          `json:"work_dir_kept,omitempty"`
	// Coverage is --coverage's report.
	Coverage *jsonCoverage `json:"coverage,omitempty"`
}

// jsonCheckpoint is a checkpoint: its directory, the level whose frontier
// it holds and the states stored then.
type jsonCheckpoint struct {
	Dir    string `json:"dir"`
	Depth  int    `json:"depth"`
	States int64  `json:"states"`
}

// jsonShortest is the outcome of the unreduced re-run of a reduced failure.
type jsonShortest struct {
	Verdict checker.Verdict `json:"verdict"`
	Reason  string          `json:"reason,omitempty"`
	States  int64           `json:"states"`
	Trace   *checker.Trace  `json:"trace,omitempty"`
}

// jsonWrongMeasure is a transition that does not decrease the spec's
// termination measure: the trace ends with it; before and after are the
// measure's values at its two ends.
type jsonWrongMeasure struct {
	Before []int          `json:"before"`
	After  []int          `json:"after"`
	Trace  *checker.Trace `json:"trace"`
}

// jsonLiveness says how liveness was decided (method: "termination
// measure", "termination measure, reduced graph" or "state graph") and describes the graph the check built.
type jsonLiveness struct {
	Method string `json:"method"`
	// Marked says, with a termination measure, that a terminal state left
	// a goal unmet and a second search computed the marks.
	Marked       bool  `json:"marked,omitempty"`
	States       int64 `json:"states"`
	Transitions  int64 `json:"transitions"`
	Cycles       int64 `json:"cycles"`
	LargestCycle int64 `json:"largest_cycle"`
	Bytes        int64 `json:"memory_bytes"`
	// BytesPerTransition is memory_bytes over transitions (0 without
	// one): what the 12-byte aim is measured by.
	BytesPerTransition float64 `json:"bytes_per_transition"`
	// DiskBytes is the size of the edges' files when they went to disk.
	DiskBytes int64 `json:"disk_bytes,omitempty"`
	// ParallelBytes bounds the working arrays of the analyses that ran
	// beside the largest one (memory_bytes counts that one), when
	// parallel_workers > 1 ran side by side.
	ParallelBytes   int64   `json:"parallel_bytes,omitempty"`
	ParallelWorkers int     `json:"parallel_workers,omitempty"`
	ElapsedMS       float64 `json:"elapsed_ms"`
	// Complete is false when a limit stopped the check (Reason says
	// which): cycles and largest_cycle are then not counted.
	Complete bool   `json:"complete"`
	Reason   string `json:"reason,omitempty"`
}

type jsonProp struct {
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Ref     string          `json:"ref"`
	Doc     string          `json:"doc"`
	Verdict checker.Verdict `json:"verdict"`
	// Vacuous marks a pass whose situation never arose (docs/vacuity.md),
	// and Unmet says what never happened.
	Vacuous bool   `json:"vacuous"`
	Unmet   string `json:"unmet,omitempty"`
	// HeldOn says what a safety property left not-checked held on.
	HeldOn string         `json:"held_on,omitempty"`
	Trace  *checker.Trace `json:"trace,omitempty"`
}

// jsonMeasure is a measure's maximum; complete is false when the run stopped
// early and max is only a lower bound.
type jsonMeasure struct {
	Name     string         `json:"name"`
	Ref      string         `json:"ref"`
	Doc      string         `json:"doc"`
	Max      int            `json:"max"`
	Complete bool           `json:"complete"`
	Trace    *checker.Trace `json:"trace,omitempty"`
}

// millis renders a duration as the JSON's milliseconds.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func writeJSON(w io.Writer, r *checker.Result, shortest *checker.Result) error {
	out := jsonResult{jsonStamp: stamp(),
		Spec: r.Spec, Variant: r.Variant, N: r.Params.N, IDs: shownParams(r.Spec, r.Params).IDs, Chan: r.Params.Chan.String(),
		Cap: r.Params.Cap, Initiators: r.Params.Initiators, Claims: r.Params.Claims, Drift: r.Params.Drift, Verdict: r.Verdict, Reason: r.Reason,
		States: r.States, Transitions: r.Transitions, Terminal: r.Terminal, Depth: r.Depth,
		ElapsedMS: millis(r.Elapsed), PhaseElapsedMS: map[string]float64{checker.PhaseSafety: millis(r.SafetyElapsed)},
		StatesPerSec: r.StatesPerSecond(), StoppedAtViolation: r.StoppedAtViolation, MemoryLimit: r.MemoryLimit,
		MemoryBytes: r.MemoryBytes, PeakRSS: peakRSS(), DiskBytes: r.DiskBytes, Workers: r.Workers, Collision: r.CollisionBound(),
		Properties: map[string]string{}, Bound: r.Params.Bound, Param: r.Meaning.Params.Param, Reduced: r.Reduced, ReductionNote: r.ReductionNote,
	}
	if shortest != nil {
		out.Shortest = &jsonShortest{Verdict: shortest.Verdict, Reason: shortest.Reason, States: shortest.States}
		if f := shortest.Failure(); f != nil {
			out.Shortest.Trace = f.Trace
		}
	}
	if c := r.Checkpoint; c != nil {
		out.Checkpoint = &jsonCheckpoint{Dir: c.Dir, Depth: c.Depth, States: c.States}
	}
	out.WorkDir, out.WorkDirKept = r.WorkDir, r.WorkDirKept
	out.MaxDepth, out.DepthLimited = r.Meaning.MaxDepth, r.DepthLimited
	out.Coverage = coverageJSON(r.Coverage)
	out.Unchecked = r.SkippedLiveness
	out.Unmeasured = r.SkippedMeasures
	out.NoDeadlock, out.FailVacuous = r.Meaning.NoDeadlock, r.Meaning.FailVacuous
	if l := r.Liveness; l != nil {
		out.Fair = l.Fairness.String()
		out.Liveness = &jsonLiveness{Method: l.Method, Marked: l.Marked, States: l.States, Transitions: l.Transitions, Cycles: l.Cycles, LargestCycle: l.LargestCycle,
			Bytes: l.Bytes, BytesPerTransition: l.BytesPerTransition(), DiskBytes: l.DiskBytes, ParallelBytes: l.ParallelBytes, ParallelWorkers: l.Workers, ElapsedMS: millis(l.Elapsed), Complete: l.Complete, Reason: l.Reason}
		out.PhaseElapsedMS[checker.PhaseLiveness] = millis(l.Elapsed)
	}
	if m := r.WrongMeasure; m != nil {
		out.WrongMeasure = &jsonWrongMeasure{Before: m.Before, After: m.After, Trace: m.Trace}
	}
	if p := &r.Params; p.Duplex != model.DefaultDuplex {
		out.Links, out.Orientations = p.Duplex.String(), len(ring.InitialOrientations(p))
		if p.Orientation != nil {
			out.Orientation = model.FormatOrientation(p.Orientation)
		}
	}
	for _, p := range r.Props {
		out.Properties[p.Name] = string(p.Verdict)
		out.Details = append(out.Details, jsonProp{Name: p.Name, Kind: p.Kind.String(), Ref: p.Ref, Doc: p.Doc, Verdict: p.Verdict,
			Vacuous: p.Vacuous, Unmet: p.Unmet, HeldOn: p.HeldOn, Trace: p.Trace})
	}
	for _, m := range r.Measures {
		out.Measures = append(out.Measures, jsonMeasure{Name: m.Name, Ref: m.Ref, Doc: m.Doc, Max: m.Max, Complete: m.Complete, Trace: m.Trace})
	}
	if f := r.Failure(); f != nil {
		out.Trace = f.Trace
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
