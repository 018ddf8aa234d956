// Package diskio is what the checker's files share, whoever writes them (the
// search's levels and trace log, the disk store, the checkpoint): how a file
// is created, its checksum, which faults are the machine's, and the
// encoding of a checkpoint's sections.
package diskio

import (
	"bufio"
	"io"
	"os"

	"github.com/ringcheck/mc/internal/atomicfile"
)

// Buffer is the size of the buffers through which the spilled files (the
// levels, the trace log on disk, a level's candidates and their sort) are
// written and read.
const Buffer = 256 << 10

// Create creates, or empties, a working file, in the run's own working
// directory, never through a symbolic link. Tests replace it to make a
// disk full.
var Create = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|atomicfile.NoFollow, 0o644)
}

// SyncDir makes the entries of the directory dir durable: a file created
// or renamed there survives a crash.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// Empty truncates a spill file and points its writer w, which writes
// through sw, at its start, with a new sum.
func Empty(f *os.File, w *bufio.Writer, sw *SumWriter) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w.Reset(sw)
	sw.Reset()
	return nil
}
