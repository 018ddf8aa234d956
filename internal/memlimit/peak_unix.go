//go:build unix

package memlimit

import (
	"runtime"
	"syscall"
)

// systemPeakRSS is getrusage's peak resident memory in bytes. The kernel
// gives it in KiB, but darwin's in bytes.
func systemPeakRSS() (int64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	unit := int64(1024)
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		unit = 1
	}
	return int64(ru.Maxrss) * unit, nil
}
