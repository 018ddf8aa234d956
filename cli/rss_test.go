package cli

import (
	"syscall"
	"testing"
)

// The peak memory mc reports is this process's own, in the range the
// kernel's accounting gives.
func TestPeakRSSIsThisProcesss(t *testing.T) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip(err)
	}
	if got := peakRSS(); got <= 1<<20 || got > ru.Maxrss*1024 {
		t.Fatalf("peak RSS %d bytes; getrusage says at most %d", got, ru.Maxrss*1024)
	}
}
