package checker

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fullDevice is the path of a device where every write fails with ENOSPC:
// /dev/full, or, in a container without it, a node of the same device
// (character 1, 7) made in the test's directory; the test is skipped where
// neither can be had.
func fullDevice(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/dev/full"); err == nil {
		return "/dev/full"
	}
	path := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skipf("no /dev/full, and none can be made: %v", err)
	}
	return path
}
