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
func TryLock(f *os.File) error { return tryLockFileEx(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }

// TryLockShared takes a shared lock on f, which readers hold together and
// which keeps out an exclusive one, or returns ErrLocked if another process
// holds an exclusive lock.
func TryLockShared(f *os.File) error { return tryLockFileEx(f, 0) }

func tryLockFileEx(f *os.File, how uint32) error {
	at := windows.Overlapped{Offset: ^uint32(0), OffsetHigh: ^uint32(0) >> 1}
	err := windows.LockFileEx(windows.Handle(f.Fd()), how|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}
