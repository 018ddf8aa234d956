//go:build unix

package filelock

import "os"

// lockDir locks the directory itself: flock takes a directory's
// descriptor, so the directory holds nothing but what its user puts there.
func lockDir(path string) (func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := TryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return f.Close, nil
}
