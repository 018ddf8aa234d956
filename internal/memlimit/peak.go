package memlimit

import (
	"bytes"
	"os"
	"strconv"
)

// Peak is the process's peak resident memory in bytes: everything mc
// held, not only what the checker counts. Linux gives it as VmHWM in
// /proc/self/status, in KiB, for this program alone; the system's own
// figure, the fallback (rusagePeak on unix, the peak working set on
// windows), keeps across exec the peak of the process it replaced on unix
// (the go command's, under go run). 0 when neither is available.
func Peak() int64 {
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
	peak, err := systemPeakRSS()
	if err != nil {
		return 0
	}
	return peak
}
