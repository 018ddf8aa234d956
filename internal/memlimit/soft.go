package memlimit

import (
	"math"
	"runtime/debug"
)

// KeepSoft sets the Go runtime's soft memory limit (debug.SetMemoryLimit,
// GOMEMLIMIT's setting) to the part of limit the runtime may have now: the
// limit less what the process holds outside the runtime, the binary's
// pages (which Resident counts) or outside, the bytes the caller maps
// beside the runtime, whichever is more. Left at the limit itself, the
// collector would let the heap grow to twice what is live whatever else
// the process holds, and the process would pass the limit holding a heap
// of garbage. Callers set it again as what they hold changes, and restore
// the runtime's previous limit when done.
func KeepSoft(limit, outside int64) {
	besides := max(Resident()-runtimeBytes(), outside)
	debug.SetMemoryLimit(max(limit-besides, 1))
}

// startLimit is the runtime's soft limit when the program started: what
// GOMEMLIMIT set, or math.MaxInt64 for none. It is read before any
// KeepSoft, which changes the runtime's.
var startLimit = debug.SetMemoryLimit(-1)

// Environment is the limit GOMEMLIMIT gave the program, 0 if none: the
// limit a command keeps to when it is given none, whatever KeepSoft has
// since made of the runtime's.
func Environment() int64 {
	if startLimit == math.MaxInt64 {
		return 0
	}
	return startLimit
}
