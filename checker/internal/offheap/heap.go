//go:build !unix || race

package offheap

// Slice returns n zeroed elements on the Go heap: under the race detector,
// which sees only the heap (see mmap.go), and on systems without mmap,
// windows among them. There the tables and blocks cost what mmap.go says
// mapping avoids: the collector lets the heap grow to about twice what is
// live, and an outgrown table is held until it collects. The states,
// counts and verdicts are the same; only the memory a run needs grows.
func Slice[T uint64 | uint32 | byte](n int) []T { return make([]T, n) }

// Free leaves s to the collector.
func Free[T uint64 | uint32 | byte](s []T) {}

// Bytes is 0: everything is on the heap, in the runtime's figures.
func Bytes() int64 { return 0 }
