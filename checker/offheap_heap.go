//go:build !unix || race

package checker

// mapSlice returns n zeroed elements on the Go heap: on systems without
// mmap, and under the race detector, which sees only the heap (see
// offheap_mmap.go).
func mapSlice[T uint64 | uint32 | byte](n int) []T { return make([]T, n) }

// unmapSlice leaves s to the collector.
func unmapSlice[T uint64 | uint32 | byte](s []T) {}

// offHeapBytes is 0: everything is on the heap, in the runtime's figures.
func offHeapBytes() int64 { return 0 }
