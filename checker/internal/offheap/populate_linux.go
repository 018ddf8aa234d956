//go:build !race

package offheap

import "syscall"

// populate asks Linux to fault the mapping's pages in when it maps them
// (mmap.go says why).
const populate = syscall.MAP_POPULATE
