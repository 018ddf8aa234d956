package checker

import (
	"errors"
	"syscall"
)

// A full disk, an exceeded quota, a disk that fails to read or write, or one
// that returns other bytes than were written, is a fault of the machine,
// not of mc nor of the spec: the run stops, incomplete, as it does at a
// limit, with what it found so far and its last checkpoint, from which it
// can be resumed once the fault is fixed. It is never reported as a bug in
// mc, nor as a verdict.

// environmental says whether err is a fault of the machine's disks.
func environmental(err error) bool {
	var c *CorruptFile
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EROFS, syscall.EFBIG} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return errors.As(err, &c)
}

// readFault says whether err is a fault of the disk in reading a file, not
// a file that holds what it should not: on resume, the one stops the run,
// the other refuses it.
func readFault(err error) bool {
	return environmental(err) && !errors.As(err, new(*CorruptFile))
}

// stopOnEnvironment turns a fault of the machine in res.Err into a stop:
// the run is incomplete for that reason.
func (e *bfs[S]) stopOnEnvironment(res *Result) {
	if res.Err != nil && environmental(res.Err) {
		e.halt("I/O error: " + res.Err.Error())
		res.Err = nil
	}
}
