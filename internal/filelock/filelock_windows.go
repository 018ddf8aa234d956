//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// TryLock takes an exclusive lock on f, held until f is closed, or returns
// ErrLocked if another process holds one.
//
// Windows locks byte ranges, and a locked range cannot be read by another
// process: the run store's lock file names its holder in its first bytes
// for the next process to read. So the lock covers one byte far past any
// content instead, which windows allows.
func TryLock(f *os.File) error {
	at := windows.Overlapped{Offset: ^uint32(0), OffsetHigh: ^uint32(0) >> 1}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}
