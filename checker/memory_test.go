package checker

import (
	"context"
	"runtime/debug"
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

// With no --max-memory, the runtime's limit (GOMEMLIMIT) is honoured.
func TestGOMEMLIMITIsHonoured(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 10)
	defer debug.SetMemoryLimit(old)
	r := Run(context.Background(), countersSystem(300), Options{Workers: 1})
	debug.SetMemoryLimit(old)
	if r.Verdict != Incomplete || !strings.HasPrefix(r.Reason, "memory limit 1.0 KiB reached") {
		t.Fatalf("verdict %s (%s), err %v", r.Verdict, r.Reason, r.Err)
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
