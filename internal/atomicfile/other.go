//go:build !unix

package atomicfile

// NoFollow is 0 where the system has no O_NOFOLLOW: an exclusive create
// (O_EXCL) already refuses a name that a link holds.
const NoFollow = 0

// syncDir does nothing where a directory cannot be synced (Windows): the
// rename is as durable as the system makes it.
func syncDir(string) error { return nil }
