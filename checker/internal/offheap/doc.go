// Package offheap maps the checker's big pointer-free arrays (the visited
// set's tables, the levels' blocks) outside the Go heap where it can, and
// counts what it holds, which the runtime's memory figures leave out
// (mmap.go says why).
package offheap
