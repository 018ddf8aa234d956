//go:build windows

package filelock

import (
	"os"
	"path/filepath"
)

// dirLockFile is the file that holds a directory's lock on windows, which
// locks byte ranges of files but not directories.
const dirLockFile = "mc.lock"

// lockDir locks dirLockFile in the directory, creating it; releasing the
// lock removes the file again, so that the directory's owner can remove
// the directory. Windows refuses to remove a file another process has
// open: the file then stays, harmlessly, for that process to lock next.
func lockDir(path string) (func() error, error) {
	name := filepath.Join(path, dirLockFile)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := TryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		err := f.Close()
		os.Remove(name)
		return err
	}, nil
}
