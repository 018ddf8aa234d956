//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// NoFollow makes an open fail on a symbolic link rather than follow it.
const NoFollow = syscall.O_NOFOLLOW

// syncDir makes the rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
