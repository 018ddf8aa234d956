// Package checkjson is the JSON mc check --json prints: one Go type,
// Result, that the command fills and a program reading mc's output can
// decode into, and the JSON Schema generated from it (check.schema.json,
// by go generate), which docs/json.md must describe field by field
// (TestDocsDescribeEveryField).
package checkjson

//go:generate go run ./genschema

import (
	"time"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

// Result is mc check --json's object (docs/json.md): one run, as
// checker.Result holds it, in the names and units of the JSON.
type Result struct {
	runinfo.Stamp
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
	Liveness       *Liveness          `json:"liveness,omitempty"`
	WrongMeasure   *WrongMeasure      `json:"wrong_measure,omitempty"`
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
	Details            []Prop            `json:"property_details"`
	Measures           []Measure         `json:"measures,omitempty"`
	Trace              *checker.Trace    `json:"trace,omitempty"`
	// Reduced marks a run under partial-order reduction: states counts the
	// states stored, and a trace need not be shortest.
	Reduced       bool   `json:"reduced"`
	ReductionNote string `json:"reduction_note,omitempty"`
	// Shortest is the unreduced re-run that --shortest made.
	Shortest *Shortest `json:"shortest,omitempty"`
	// Checkpoint is the last checkpoint saved or resumed from; WorkDir is a
	// disk run's working directory, and WorkDirKept why it was kept (empty
	// if it was removed).
	Checkpoint  *Checkpoint `json:"checkpoint,omitempty"`
	WorkDir     string      `json:"work_dir,omitempty"`
	WorkDirKept string      `json:"work_dir_kept,omitempty"`
	// Coverage is --coverage's report.
	Coverage *Coverage `json:"coverage,omitempty"`
}

// Checkpoint is a checkpoint: its directory, the level whose frontier
// it holds and the states stored then.
type Checkpoint struct {
	Dir    string `json:"dir"`
	Depth  int    `json:"depth"`
	States int64  `json:"states"`
}

// Shortest is the outcome of the unreduced re-run of a reduced failure.
type Shortest struct {
	Verdict checker.Verdict `json:"verdict"`
	Reason  string          `json:"reason,omitempty"`
	States  int64           `json:"states"`
	Trace   *checker.Trace  `json:"trace,omitempty"`
}

// WrongMeasure is a transition that does not decrease the spec's
// termination measure: the trace ends with it; before and after are the
// measure's values at its two ends.
type WrongMeasure struct {
	Before []int          `json:"before"`
	After  []int          `json:"after"`
	Trace  *checker.Trace `json:"trace"`
}

// Liveness says how liveness was decided (method: "termination
// measure", "termination measure, reduced graph" or "state graph") and describes the graph the check built.
type Liveness struct {
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
	// Rebuilt says why the graph was built by exploring the model a
	// second time after the search; absent when the search recorded it.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// Prop is one property's entry of property_details.
type Prop struct {
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

// Measure is a measure's maximum; complete is false when the run stopped
// early and max is only a lower bound.
type Measure struct {
	Name     string         `json:"name"`
	Ref      string         `json:"ref"`
	Doc      string         `json:"doc"`
	Max      int            `json:"max"`
	Complete bool           `json:"complete"`
	Trace    *checker.Trace `json:"trace,omitempty"`
}

// Of is run r in the JSON. shortest is --shortest's unreduced re-run
// (nil without one), ids the ids mc shows (none for a spec whose
// processes have none) and peakRSS the process's peak resident set.
func Of(r *checker.Result, shortest *checker.Result, ids []int, peakRSS int64) Result {
	out := Result{Stamp: runinfo.ThisStamp(),
		Spec: r.Spec, Variant: r.Variant, N: r.Params.N, IDs: ids, Chan: r.Params.Chan.String(),
		Cap: r.Params.Cap, Initiators: r.Params.Initiators, Claims: r.Params.Claims, Drift: r.Params.Drift, Verdict: r.Verdict, Reason: r.Reason,
		States: r.States, Transitions: r.Transitions, Terminal: r.Terminal, Depth: r.Depth,
		ElapsedMS: Millis(r.Elapsed), PhaseElapsedMS: map[string]float64{checker.PhaseSafety: Millis(r.SafetyElapsed)},
		StatesPerSec: r.StatesPerSecond(), StoppedAtViolation: r.StoppedAtViolation, MemoryLimit: r.MemoryLimit,
		MemoryBytes: r.MemoryBytes, PeakRSS: peakRSS, DiskBytes: r.DiskBytes, Workers: r.Workers, Collision: r.CollisionBound(),
		Properties: map[string]string{}, Bound: r.Params.Bound, Param: r.Meaning.Params.Param, Reduced: r.Reduced, ReductionNote: r.ReductionNote,
	}
	if shortest != nil {
		out.Shortest = &Shortest{Verdict: shortest.Verdict, Reason: shortest.Reason, States: shortest.States}
		if f := shortest.Failure(); f != nil {
			out.Shortest.Trace = f.Trace
		}
	}
	if c := r.Checkpoint; c != nil {
		out.Checkpoint = &Checkpoint{Dir: c.Dir, Depth: c.Depth, States: c.States}
	}
	out.WorkDir, out.WorkDirKept = r.WorkDir, r.WorkDirKept
	out.MaxDepth, out.DepthLimited = r.Meaning.MaxDepth, r.DepthLimited
	out.Coverage = CoverageOf(r.Coverage)
	out.Unchecked = r.SkippedLiveness
	out.Unmeasured = r.SkippedMeasures
	out.NoDeadlock, out.FailVacuous = r.Meaning.NoDeadlock, r.Meaning.FailVacuous
	if l := r.Liveness; l != nil {
		out.Fair = l.Fairness.String()
		out.Liveness = &Liveness{Method: l.Method, Marked: l.Marked, States: l.States, Transitions: l.Transitions, Cycles: l.Cycles, LargestCycle: l.LargestCycle,
			Bytes: l.Bytes, BytesPerTransition: l.BytesPerTransition(), DiskBytes: l.DiskBytes, ParallelBytes: l.ParallelBytes, ParallelWorkers: l.Workers, ElapsedMS: Millis(l.Elapsed), Complete: l.Complete, Reason: l.Reason, Rebuilt: l.Rebuilt}
		out.PhaseElapsedMS[checker.PhaseLiveness] = Millis(l.Elapsed)
	}
	if m := r.WrongMeasure; m != nil {
		out.WrongMeasure = &WrongMeasure{Before: m.Before, After: m.After, Trace: m.Trace}
	}
	if p := &r.Params; p.Duplex != model.DefaultDuplex {
		out.Links, out.Orientations = p.Duplex.String(), len(ring.InitialOrientations(p))
		if p.Orientation != nil {
			out.Orientation = model.FormatOrientation(p.Orientation)
		}
	}
	for _, p := range r.Props {
		out.Properties[p.Name] = string(p.Verdict)
		out.Details = append(out.Details, Prop{Name: p.Name, Kind: p.Kind.String(), Ref: p.Ref, Doc: p.Doc, Verdict: p.Verdict,
			Vacuous: p.Vacuous, Unmet: p.Unmet, HeldOn: p.HeldOn, Trace: p.Trace})
	}
	for _, m := range r.Measures {
		out.Measures = append(out.Measures, Measure{Name: m.Name, Ref: m.Ref, Doc: m.Doc, Max: m.Max, Complete: m.Complete, Trace: m.Trace})
	}
	if f := r.Failure(); f != nil {
		out.Trace = f.Trace
	}
	return out
}

// Millis renders a duration as the JSON's milliseconds.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
