package memlimit

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "2G": 2 << 30, "1500MB": 1500e6, "1048576": 1 << 20, "8 KiB": 8 << 10,
		"1.5GiB": 3 << 29, "0.5KiB": 512, "2.25MB": 2_250_000, "1.5": 1, "1.0G": 1 << 30} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"1.", ".5GiB", "1e3", "3/2", "0.1B", "1,5GiB", "+1G", "", "0", "-5MiB", "lots", "12XB", "99999999999GiB"} {
		if got, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %d, want an error", bad, got)
		}
	}
}

// Flag refuses a limit below the floor in one line naming the smallest
// usable one, and takes one at the floor.
func TestFlagRefusesALimitBelowTheFloor(t *testing.T) {
	_, err := Flag("1KiB", 24<<20)
	if err == nil || strings.Contains(err.Error(), "\n") ||
		err.Error() != "--max-memory 1KiB is less than the memory this program needs to start; the smallest usable limit is 24MiB" {
		t.Fatalf("Flag(1KiB) below a 24 MiB floor: %v", err)
	}
	if got, err := Flag("24MiB", 24<<20); err != nil || got != 24<<20 {
		t.Fatalf("Flag(24MiB) at the floor: %d, %v", got, err)
	}
	if _, err := Flag("lots", 0); err == nil || !strings.HasPrefix(err.Error(), "--max-memory: want a positive size") {
		t.Fatalf("Flag(lots): %v", err)
	}
}

// The floor is what the process holds, rounded up to whole MiB, with room
// to start.
func TestFloorCoversWhatTheProcessHolds(t *testing.T) {
	f := Floor()
	if f%(1<<20) != 0 || f < InUse(0)+startRoom-(1<<20) {
		t.Fatalf("floor %d, in use %d", f, InUse(0))
	}
}
