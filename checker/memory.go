package checker

import (
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/ringcheck/mc/checker/internal/offheap"
)

// A run stops, incomplete, when the process's memory passes a limit: never
// killed silently by the operating system halfway through. The memory is
// every byte the Go runtime has mapped and not returned to the system
// (heap, stacks, runtime structures: what GOMEMLIMIT limits), plus the
// visited set's tables and the levels' blocks, which are mapped outside the
// runtime (internal/offheap). Files the disk store reads and writes are not
// counted: their pages are the kernel's cache, which it drops as it needs.

// memCheckEvery is the least time between two reads of the runtime's
// figures; they are read at round boundaries only.
const memCheckEvery = 100 * time.Millisecond

// memoryLimit is the limit a run keeps to: opt.MaxMemory, or, when that is
// 0, the runtime's memory limit (GOMEMLIMIT or debug.SetMemoryLimit) if one
// is set; 0 means none.
func memoryLimit(opt Options) int64 {
	if opt.MaxMemory > 0 {
		return opt.MaxMemory
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return 0
}

// memoryInUse is the memory the Go runtime holds from the system, plus what
// is mapped outside it.
func memoryInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + offheap.Bytes()
}

// memoryGuard compares the memory in use with a limit, reading the
// runtime's figures at most every memCheckEvery.
type memoryGuard struct {
	limit int64 // 0: none
	next  time.Time
}

// over reports the memory in use and whether it, plus reserve bytes the
// caller is about to need, passes the limit. Between two reads it reports
// false.
func (m *memoryGuard) over(reserve int64) (int64, bool) {
	if m.limit == 0 || time.Now().Before(m.next) {
		return 0, false
	}
	m.next = time.Now().Add(memCheckEvery)
	used := memoryInUse()
	return used, used+reserve > m.limit
}

// overMemory says why the run must stop for memory, or "".
func (e *bfs[S]) overMemory(depth int) string {
	used, over := e.mem.over(0)
	if !over {
		return ""
	}
	return fmt.Sprintf("memory limit %s reached (%s in use) after %d states, expanding depth %d",
		formatBytes(e.mem.limit), formatBytes(used), e.log.len(), depth)
}

// formatBytes renders n in binary units: "512.0 MiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
