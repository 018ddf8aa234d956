package cli

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// peakRSS is the process's peak resident memory in bytes: everything mc
// held, not only what the checker counts. Linux gives it as VmHWM in
// /proc/self/status, in KiB, for this program alone; getrusage's figure,
// the fallback, keeps across exec the peak of the process it replaced (the
// go command's, under go run).
func peakRSS() int64 {
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range bytes.Split(status, []byte("\n")) {
			if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
				kib, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
				if err == nil {
					return kib << 10
				}
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024
}
