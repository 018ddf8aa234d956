package checker

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/internal/offheap"
)

// A run that passes its memory limit stops, incomplete, and says where.
func TestMaxMemoryStopsIncomplete(t *testing.T) {
	r := Run(context.Background(), countersSystem(300), Options{Workers: 1, MaxMemory: 1 << 10})
	if r.Err != nil || r.Verdict != Incomplete || !strings.HasPrefix(r.Reason, "memory limit 1.0 KiB reached") ||
		!strings.Contains(r.Reason, "states, expanding depth") {
		t.Fatalf("verdict %s (%s), err %v", r.Verdict, r.Reason, r.Err)
	}
	if r.States == 0 || r.States >= 301*301 {
		t.Fatalf("stopped after %d states", r.States)
	}
}

// With no --max-memory, GOMEMLIMIT's limit is honoured. The runtime reads
// it when the process starts, so the test runs itself again with it set.
func TestGOMEMLIMITIsHonoured(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") == "1KiB" {
		r := Run(context.Background(), countersSystem(300), Options{Workers: 1})
		if r.Verdict != Incomplete || !strings.HasPrefix(r.Reason, "memory limit 1.0 KiB reached") {
			t.Fatalf("verdict %s (%s), err %v", r.Verdict, r.Reason, r.Err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGOMEMLIMITIsHonoured$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOMEMLIMIT=1KiB")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("with GOMEMLIMIT=1KiB: %v\n%s", err, out)
	}
}

// The memory a run is limited by includes the visited set's tables, which
// lie outside the Go heap: a limit below them stops the run.
func TestMemoryInUseCountsTablesOffTheHeap(t *testing.T) {
	s := offheap.Slice[uint64](64 << 20)
	defer offheap.Free(s)
	if used := memoryInUse(); used < 512<<20 {
		t.Fatalf("a 512 MiB table is mapped, memory in use is %s", formatBytes(used))
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 1 << 10: "1.0 KiB", 3 << 29: "1.5 GiB", 1 << 62: "4.0 EiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
