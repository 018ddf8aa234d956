package checker

import (
	"fmt"
	"math"
	"time"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
)

// Verdict is the outcome of a run or of one property. Incomplete is never a
// pass: a limit was reached or the run was interrupted before the question
// was settled. NotChecked is a property's only, never a run's: the run
// stopped at the first violation (Options.Continue unset) before the
// property was decided, and the run's verdict is then Fail; or the run was
// cut at Options.MaxDepth, which leaves liveness undecided.
type Verdict string

const (
	Pass       Verdict = "pass"
	Fail       Verdict = "fail"
	Incomplete Verdict = "incomplete"
	NotChecked Verdict = "not-checked"
)

// Result is what a run found.
type Result struct {
	Spec, Variant string
	Params        model.Params
	// Meaning is what the run means (MeaningOf): a trace file of it
	// records this.
	Meaning runinfo.Meaning
	Verdict Verdict
	// Reason says why a run is incomplete: "state limit 1000 reached",
	// "timeout after 5s", "interrupted".
	Reason string
	// States is the number of distinct states stored.
	States int64
	// Transitions counts every enabled action taken from an explored state,
	// including those leading to states already seen.
	Transitions int64
	// Terminal counts the states in which no action is enabled.
	Terminal int64
	// Depth is the largest number of steps from an initial state to any
	// state explored (a breadth-first level index; initial states are 0).
	Depth int
	// Elapsed is the whole run's time: SafetyElapsed, then the liveness
	// check's (Liveness.Elapsed).
	Elapsed time.Duration
	// SafetyElapsed is the breadth-first exploration's time, with the time
	// spent before the checkpoint a run resumed from.
	SafetyElapsed time.Duration
	// StoppedAtViolation is set when the run stopped at the first
	// violation (Options.Continue unset) before it had explored every
	// reachable state or checked every liveness property: the figures are
	// those of the levels explored until then, the measures are lower
	// bounds, and the properties not yet decided are NotChecked.
	StoppedAtViolation bool
	// DepthLimited is set when the run stopped at Options.MaxDepth with
	// deeper states unexplored: no property failed up to that depth, and
	// the liveness properties are NotChecked, as a cut graph cannot decide
	// them (depth.go).
	DepthLimited bool
	// Coverage is, with Options.Coverage, what each rule did; nil
	// otherwise.
	Coverage *Coverage
	// Workers is the number of goroutines that explored.
	Workers int
	// Exact is set when full states, not fingerprints, were stored.
	Exact bool
	// Reduced is set when partial-order reduction was on: States counts the
	// states stored, which may be far fewer than the reachable ones, and
	// Transitions the actions explored; a trace need not be the shortest.
	Reduced bool
	// ReductionNote says why reduction, though asked for, did not apply
	// ("n/a for rules without footprints (…)").
	ReductionNote string
	// MemoryBytes is the memory held by the visited set and trace log.
	MemoryBytes int64
	// DiskBytes, in disk mode, is what the visited set and trace log
	// hold in their files.
	DiskBytes int64
	// MemoryLimit is the memory limit the run kept to in every phase
	// (Options.MaxMemory, else GOMEMLIMIT); 0 means none.
	MemoryLimit int64
	// SkippedLiveness names the liveness properties left unchecked by
	// Options.Safety; they have no verdict.
	SkippedLiveness []string
	// SkippedMeasures names the measures left unmeasured under reduction
	// because they do not declare what they read (model.Measure.Reads).
	SkippedMeasures []string
	// Liveness describes how liveness was decided, and the graph the check
	// built if it built one; nil when the system has no liveness property.
	Liveness *LivenessStats
	// WrongMeasure is the first transition found that does not decrease
	// the spec's termination measure (model.Termination); liveness was
	// then decided on the graph. Nil when the measure held or there is
	// none.
	WrongMeasure *WrongMeasure
	Props        []PropResult
	// Measures holds, per measure of the system, its maximum over the
	// states explored.
	Measures []MeasureResult
	// Checkpoint is the last checkpoint the run saved or resumed from; nil
	// if there is none.
	Checkpoint *SavedCheckpoint
	// WorkDir is a disk run's working directory (Options.Disk); WorkDirKept
	// says why it was kept when the run ended, and is empty if it was
	// removed.
	WorkDir, WorkDirKept string
	// Err is set when mc itself failed, e.g. a trace that does not replay.
	// It is an internal error, never a verdict.
	Err error
}

// SavedCheckpoint is a checkpoint written, or resumed from: its directory,
// as an absolute path, the level whose frontier it holds, the states stored
// then, and when it was written (or resumed).
type SavedCheckpoint struct {
	Dir    string
	Depth  int
	States int64
	At     time.Time
}

// PropResult is the verdict on one property. Trace is the shortest run that
// violates it, or, for a witness that holds, the shortest run that reaches a
// state satisfying it.
type PropResult struct {
	Name, Ref, Doc string
	Kind           model.Kind
	Verdict        Verdict
	Trace          *Trace
	// Vacuous marks a pass whose situation never arose in the run
	// (model/vacuity.go), and Unmet says what never happened; with
	// Options.FailVacuous the verdict is then Fail.
	Vacuous bool
	Unmet   string
	// HeldOn says, for a safety property NotChecked because the run
	// stopped at another's violation, what it held on: "the 10234 states
	// reached".
	HeldOn string
}

// MeasureResult is the largest value a measure took in any state explored,
// with a shortest run to a state that takes it. When the run was not
// complete, Max is only a lower bound on the maximum over all reachable
// states.
type MeasureResult struct {
	Name, Ref, Doc string
	Max            int
	Complete       bool
	Trace          *Trace
}

// Failure returns the failed property with the shortest trace, or nil; a
// vacuous pass failed by Options.FailVacuous only if no other failed.
func (r *Result) Failure() *PropResult {
	var best *PropResult
	for i := range r.Props {
		p := &r.Props[i]
		if p.Verdict != Fail {
			continue
		}
		if best == nil || (best.Vacuous && !p.Vacuous) ||
			(p.Trace != nil && (best.Trace == nil || len(p.Trace.Steps) < len(best.Trace.Steps))) {
			best = p
		}
	}
	return best
}

// heldOn says what a safety property of kind k that the run did not
// decide, as it stopped at another's violation, held on: the states
// reached (their every successor was a candidate, its invariants
// evaluated), the transitions explored or the terminal states found. A
// witness or liveness property holds on no part of a run.
func heldOn(k model.Kind, res *Result) string {
	the := func(n int64, one, many string) string {
		switch n {
		case 0:
			return "the " + many + ", none so far"
		case 1:
			return "the 1 " + one
		}
		return fmt.Sprintf("the %d %s", n, many)
	}
	switch k {
	case model.Invariant:
		return the(res.States, "state reached", "states reached")
	case model.Step:
		return the(res.Transitions, "transition explored", "transitions explored")
	case model.End:
		return the(res.Terminal, "terminal state found", "terminal states found")
	}
	return ""
}

// CollisionBound bounds the probability that two distinct states shared a
// fingerprint, so that one was never explored: each of the Transitions
// fingerprint lookups can collide with at most States stored fingerprints,
// each with probability 2^-64 (TLC prints the same kind of estimate). It is
// 0 for an exact run, which stores full states.
func (r *Result) CollisionBound() float64 {
	if r.Exact {
		return 0
	}
	return float64(r.States) * float64(r.Transitions+r.States) / math.Exp2(64)
}

// StatesPerSecond is the breadth-first exploration's rate.
func (r *Result) StatesPerSecond() float64 {
	if r.SafetyElapsed <= 0 {
		return 0
	}
	return float64(r.States) / r.SafetyElapsed.Seconds()
}
