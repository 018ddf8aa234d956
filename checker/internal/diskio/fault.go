package diskio

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

// Environmental says whether err is a fault of the machine's disks.
func Environmental(err error) bool {
	var c *CorruptFile
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EROFS, syscall.EFBIG} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return errors.As(err, &c)
}

// ReadFault says whether err is a fault of the disk in reading a file, not
// a file that holds what it should not: on resume, the one stops the run,
// the other refuses it.
func ReadFault(err error) bool {
	return Environmental(err) && !errors.As(err, new(*CorruptFile))
}
