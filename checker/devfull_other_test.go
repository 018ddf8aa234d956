//go:build !linux

package checker

import (
	"os"
	"testing"
)

// fullDevice is /dev/full, where every write fails with ENOSPC; the test
// is skipped where there is none.
func fullDevice(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	return "/dev/full"
}
