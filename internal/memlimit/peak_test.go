package memlimit

import "testing"

// The peak memory mc reports is this process's own, in the range the
// system's accounting gives.
func TestPeakRSSIsThisProcesss(t *testing.T) {
	most, err := systemPeakRSS()
	if err != nil {
		t.Skip(err)
	}
	if got := Peak(); got <= 1<<20 || got > most {
		t.Fatalf("peak RSS %d bytes; the system says at most %d", got, most)
	}
}
