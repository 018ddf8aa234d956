//go:build !unix || race

package offheap

// Slice returns n zeroed elements on the Go heap: on systems without
// mmap, and under the race detector, which sees only the heap (see
// mmap.go).
func Slice[T uint64 | uint32 | byte](n int) []T { return make([]T, n) }

// Free leaves s to the collector.
func Free[T uint64 | uint32 | byte](s []T) {}

// Bytes is 0: everything is on the heap, in the runtime's figures.
func Bytes() int64 { return 0 }
