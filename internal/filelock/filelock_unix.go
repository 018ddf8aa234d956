//go:build unix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// TryLock takes an exclusive lock on f, held until f is closed, or returns
// ErrLocked if another process holds one.
func TryLock(f *os.File) error { return tryFlock(f, unix.LOCK_EX) }

// TryLockShared takes a shared lock on f, which readers hold together and
// which keeps out an exclusive one, or returns ErrLocked if another process
// holds an exclusive lock.
func TryLockShared(f *os.File) error { return tryFlock(f, unix.LOCK_SH) }

func tryFlock(f *os.File, how int) error {
	err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}
