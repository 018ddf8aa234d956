// Package atomicfile is how mc writes a file: to a temporary name beside
// it, created exclusively (never through a symbolic link, never reusing a
// file that is there), synced, then renamed over the file. A process
// killed at any moment, or a disk that fills up, leaves the file as it was
// or whole, never cut short; a symbolic link planted at the temporary name
// makes mc write nothing through it, and one planted at the file's name is
// replaced, not followed.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// tempSuffix ends every temporary name: .<name>.<16 hex digits>.mc-tmp.
const tempSuffix = ".mc-tmp"

// Create opens a new temporary file at path, exclusively and without
// following a symbolic link. Tests replace it to make a disk full.
var Create = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|NoFollow, 0o644)
}

// Write makes path hold what fill writes, or, if fill or any step fails,
// leaves path as it was and removes the temporary file.
func Write(path string, fill func(w io.Writer) error) (err error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, tmp, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	w := bufio.NewWriterSize(f, 256<<10)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// WriteFile makes path hold data (Write).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// createTemp creates a new temporary file for name in dir, trying other
// random names while one is taken.
func createTemp(dir, name string) (*os.File, string, error) {
	for range 100 {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.%016x%s", name, rand.Uint64(), tempSuffix))
		f, err := Create(tmp)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("creating a temporary file for %s in %s: every name tried is taken", name, dir)
}

// CanCreate says whether a file name can be made in dir: it creates a
// temporary file for name there, as Write would, and removes it. A process
// killed in between leaves a temporary file that RemoveStale removes.
func CanCreate(dir, name string) bool {
	f, tmp, err := createTemp(dir, name)
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(tmp)
	return true
}

// IsTemp says whether file is a temporary name Write makes for name: what
// a process killed while writing name leaves.
func IsTemp(file, name string) bool {
	mid, ok := strings.CutPrefix(file, "."+name+".")
	if !ok {
		return false
	}
	hex, ok := strings.CutSuffix(mid, tempSuffix)
	return ok && len(hex) == 16 && strings.Trim(hex, "0123456789abcdef") == ""
}

// RemoveStale removes from dir the temporary files of name that killed
// processes left: regular files only, never a link or a directory. The
// caller holds dir (a lock) so that no live writer's file is among them.
func RemoveStale(dir, name string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if IsTemp(e.Name(), name) && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
