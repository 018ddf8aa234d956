package checker

import (
	"time"

	"github.com/ringcheck/mc/model"
)

// firstCheckpointAfter is when a run that checkpoints saves its first
// checkpoint, if CheckpointEvery is longer: early, so that a run stopped
// after a few seconds (Ctrl-C, a full disk) rarely leaves none.
var firstCheckpointAfter = 10 * time.Second

// FirstCheckpoint is how long after its start a run that checkpoints every
// every saves its first checkpoint.
func FirstCheckpoint(every time.Duration) time.Duration {
	return min(every, firstCheckpointAfter)
}

// Options bound a run. The zero value explores everything.
type Options struct {
	// MaxStates stops the run, incomplete, once this many distinct states
	// are stored; 0 means no limit.
	MaxStates int64
	// Timeout stops the run, incomplete, after this long; 0 means none.
	Timeout time.Duration
	// Safety checks the safety properties only (invariants, step, end and
	// witness properties): liveness, which needs the whole state graph in
	// memory, is left unchecked, and the result names what was skipped.
	Safety bool
	// Workers is the number of goroutines that expand a level; 0 means one
	// per CPU. Every figure and trace is the same for any number.
	Workers int
	// Exact stores full state encodings instead of 64-bit fingerprints, so
	// that no collision can hide a state; for validating small runs.
	Exact bool
	// MaxMemory stops the run, incomplete, once the process holds more
	// than this many bytes (memory.go); 0 means the runtime's memory limit
	// (GOMEMLIMIT) if one is set, else none. It is checked between rounds,
	// so a run may pass it by one round's candidates.
	MaxMemory int64
	// Reduce turns partial-order reduction on (package por): fewer
	// states are stored, every verdict is the same, but a counterexample
	// need not be the shortest. It is refused with the disk store and with
	// properties other than invariants, step, end and witness properties.
	Reduce bool
	// Disk, if not empty, is a directory under which the run makes a
	// working directory of its own (workdir.go), where the visited set
	// (sorted runs of fingerprints, store.OpenDisk), the trace log, the
	// levels and each level's candidates are kept, so that memory
	// stays bounded when the state space outgrows it. A resumed run uses
	// the working directory its checkpoint names, which must lie in Disk.
	// KeepDir keeps the working directory when the run ends; otherwise it
	// is removed unless a checkpoint still needs it.
	Disk    string
	KeepDir bool
	// Checkpoint, if not empty, is a directory where the run saves its
	// progress at level boundaries: first once FirstCheckpoint has passed,
	// then at most every CheckpointEvery (0: at every level). Resume
	// continues the run saved there.
	Checkpoint      string
	CheckpointEvery time.Duration
	Resume          bool
	// SpecHash identifies the spec's behaviour (specs.Entry.Hash): a
	// checkpoint records it, and a resume under another is refused. ""
	// when the caller has none.
	SpecHash string
	// Fair is the fairness assumption liveness properties are checked
	// under; the zero value is weak fairness per process.
	Fair model.Fairness
	// NoDeadlock leaves terminal states unchecked for deadlock: the
	// property model.Deadlock is not added (model.System.Ends). It is
	// part of the run's meaning.
	NoDeadlock bool
	// Continue checks every property to the end. Without it a run stops
	// at the first violation (as TLC and SPIN do): at the end of the level
	// in which a safety property first fails, so that its figures are the
	// same for any number of workers, either store and a resumed run, and
	// the counterexample is still a shortest one; liveness is then not
	// checked, and of several liveness properties the check stops at the
	// first that fails. The properties left undecided are NotChecked.
	Continue bool
	// MaxDepth bounds the search to the states at most this many steps
	// from an initial state (depth.go); 0 means no bound. It is part of
	// the run's meaning, and refused with Reduce (CanBound).
	MaxDepth int
	// FailVacuous makes a vacuous pass (model/vacuity.go) a failure, and
	// the run's verdict Fail: for CI, where a claim that was never put to
	// the test should not pass. It changes verdicts, so it is part of the
	// run's meaning.
	FailVacuous bool
	// Coverage counts, per rule and process, the transitions taken and the
	// new states found (coverage.go, Result.Coverage). It changes no state
	// and no verdict.
	Coverage bool
	// Progress, if not nil, is called about every ProgressEvery (default
	// 1s) with the run's figures so far, from one goroutine at a time.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	// Phase names what the run is doing: PhaseSafety, the breadth-first
	// exploration, or PhaseLiveness, the liveness graph's construction
	// and search.
	Phase               string
	States, Transitions int64
	Depth               int
	// Frontier is the number of states queued for exploration.
	Frontier int
	// Elapsed is the time since the run started, over every phase.
	Elapsed     time.Duration
	MemoryBytes int64
}

// The phases of a run, as Progress names them.
const (
	PhaseSafety   = "safety"
	PhaseLiveness = "liveness"
)
