//go:build unix

package liveness

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only. The pages are the
// kernel's cache of the file: it reads them on demand and drops them under
// memory pressure, so a graph on disk costs the process only what it reads
// at the moment.
func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(m []byte) error { return syscall.Munmap(m) }
