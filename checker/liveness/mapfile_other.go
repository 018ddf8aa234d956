//go:build !unix

package liveness

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory, where there is no
// mmap: the graph's edges then cost memory again once built.
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	_, err := f.ReadAt(b, 0)
	if err == io.EOF {
		err = nil
	}
	return b, err
}

func unmapFile([]byte) error { return nil }
