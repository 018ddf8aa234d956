package checker

import "time"

// Options bound a run. The zero value explores everything.
type Options struct {
	// MaxStates stops the run, incomplete, once this many distinct states
	// are stored; 0 means no limit.
	MaxStates int64
	// Timeout stops the run, incomplete, after this long; 0 means none.
	Timeout time.Duration
}
