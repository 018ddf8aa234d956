package checker

import "time"

// Options bound a run. The zero value explores everything.
type Options struct {
	// MaxStates stops the run, incomplete, once this many distinct states
	// are stored; 0 means no limit.
	MaxStates int64
	// Timeout stops the run, incomplete, after this long; 0 means none.
	Timeout time.Duration
	// Fair is the fairness assumption liveness properties are checked
	// under; the zero value is weak fairness per process.
	Fair Fairness
	// Progress, if not nil, is called from the exploring goroutine about
	// every ProgressEvery (default 1s) with the run's figures so far.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	States, Transitions int64
	Depth               int
	// Frontier is the number of states queued for exploration.
	Frontier    int
	Elapsed     time.Duration
	MemoryBytes int64
}
