//go:build !linux

package memlimit

// Resident is 0 where no cheap reading of the resident set is at hand: the
// limit then counts what the Go runtime and the caller report (InUse),
// which leaves out the binary's own pages.
func Resident() int64 { return 0 }
