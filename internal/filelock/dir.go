package filelock

// Dir is a lock on a directory, held until Close.
type Dir struct{ release func() error }

// LockDir locks the directory path, or returns ErrLocked if another
// process holds it. On unix systems the lock is on the directory itself;
// windows cannot lock a directory, so it locks a file it creates there
// (dir_windows.go) and removes on Close: a directory's owner releases its
// lock before removing it.
func LockDir(path string) (*Dir, error) {
	release, err := lockDir(path)
	if err != nil {
		return nil, err
	}
	return &Dir{release: release}, nil
}

// Close releases the lock.
func (d *Dir) Close() error { return d.release() }
