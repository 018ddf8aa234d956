package cli

import (
	"io"
	"os"
	"path/filepath"
)

// writeFileAtomically writes path through write: to a fresh name created
// exclusively in path's directory (never through a symlink left there),
// synced, then renamed over path, so that a reader, or a crash, sees the
// old file or the whole new one, never part of it.
func writeFileAtomically(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
