// Package filelock holds the locks that keep two mc processes out of one
// directory: a disk run's working directory, a checkpoint directory, the
// run store. A lock is exclusive, taken without waiting, held by an open
// file and released when that file is closed or its process dies, so a
// killed mc leaves none behind.
//
// On unix systems the lock is flock(2) through golang.org/x/sys/unix; on
// windows it is LockFileEx through golang.org/x/sys/windows. The standard
// library's syscall package is frozen (its documentation sends callers to
// x/sys) and has no LockFileEx; x/sys is the Go team's own, kept in step
// with each system, and was already in mc's module graph through Badger.
package filelock

import "errors"

// ErrLocked is TryLock's and LockDir's answer when another process holds
// the lock.
var ErrLocked = errors.New("locked by another process")
