//go:build unix && !race

package offheap

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The visited set's tables and the levels' blocks are the bulk of a run's
// memory. Kept on the Go heap they would count twice: the collector lets the
// heap grow to twice what is live before it collects (GOGC=100), and every
// table a shard outgrows is garbage until then. Mapped directly from the
// kernel, they cost what they hold, and a freed table or block returns its
// pages at once. They hold no pointers, so the collector need not see them.
//
// Under the race detector they stay on the heap (heap.go), which
// the detector watches and mapped memory is outside of.

// Slice returns n zeroed elements outside the Go heap, or on it if the
// kernel refuses the mapping. Where the kernel can (populate), the pages
// are populated at once: tables and blocks are written all over soon
// after, and one call costs less than a page fault per page
// (docs/performance.md gives the counts).
func Slice[T uint64 | uint32 | byte](n int) []T {
	if n == 0 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, n*int(unsafe.Sizeof(T(0))), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|populate)
	if err != nil {
		return make([]T, n)
	}
	mapped.Add(int64(len(b)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// mapped is the number of bytes Slice holds, which the Go runtime's
// figures do not include.
var mapped atomic.Int64

// Bytes is the memory Slice holds outside the Go heap.
func Bytes() int64 { return mapped.Load() }

// Free returns s, made by Slice, to the kernel; s must not be used
// afterwards. A slice the heap provided is left to the collector: Munmap
// refuses what it did not map.
func Free[T uint64 | uint32 | byte](s []T) {
	if cap(s) == 0 {
		return
	}
	s = s[:cap(s)]
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
	if syscall.Munmap(b) == nil {
		mapped.Add(-int64(len(b)))
	}
}
