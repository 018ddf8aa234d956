package main

import "syscall"

// peakRSS is the process's peak resident memory in bytes: everything mc
// held, not only what the checker counts. Linux reports it in KiB.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024
}
