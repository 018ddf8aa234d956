// Package memlimit is the memory limit of every command that takes
// --max-memory (mc check, simulate and sweep; mc-beam check): the size's
// parsing (size.go), the memory a process holds as the limit counts it
// (inuse.go), the smallest limit a process can keep to (floor.go), the
// limit kept to when none is given (default.go), the peak a run reports
// (peak.go), and the watcher that
// stops work on a context at the limit (watch.go). One
// package, so that the limit means the same, and its messages read the
// same, in both programs.
//
// A limit holds when the process's peak resident memory stays within it
// (issue #36, item 13): the memory counted is what the operating system
// charges the process (its resident set on Linux), not only the Go heap,
// which leaves out the binary's own pages, goroutine stacks, the runtime's
// structures and whatever a program maps beside the heap.
package memlimit
