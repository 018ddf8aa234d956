package memlimit

import (
	"bytes"
	"os"
	"strconv"
)

// Resident is the process's resident set in bytes, the second field of
// /proc/self/statm (in pages): what the kernel charges it now, and what
// its peak (rusage's maxrss) is the highest of. 0 if it cannot be read.
func Resident() int64 {
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := bytes.Fields(statm)
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
