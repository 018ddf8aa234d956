// Package offheap maps the checker's big pointer-free arrays (the visited
// set's tables, the levels' blocks) outside the Go heap where it can, and
// counts what it holds, which the runtime's memory figures leave out
// (mmap.go says why). It maps them on unix systems, populating the pages
// at once on Linux only (populate_linux.go); on windows, and under the race
// detector, they stay on the Go heap (heap.go).
package offheap
