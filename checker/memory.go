package checker

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/ringcheck/mc/checker/internal/offheap"
	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/internal/memlimit"
)

// A run stops, incomplete, when the process's memory passes a limit: never
// killed silently by the operating system halfway through. The memory is
// what the process holds as memlimit.InUse counts it: its resident set
// where the system tells it (the binary's pages and files mapped to be
// read included), and at least every byte the Go runtime has mapped and
// not returned to the system plus the visited set's tables and the levels'
// blocks, which are mapped outside the runtime (internal/offheap). Files
// the disk store reads and writes, but does not map, are not counted:
// their pages are the kernel's cache, which it drops as it needs.

// memCheckEvery is the least time between two reads of the memory in use.
// The search asks at round boundaries only, the later phases every few
// hundred states or some thousands of steps (phaseGuard), so that a read
// each time they ask costs little, while a phase's first tables, made in
// a few milliseconds, are seen before they pass the limit.
const memCheckEvery = time.Millisecond

// memoryLimit is the limit a run keeps to: opt.MaxMemory, or, when that is
// 0, GOMEMLIMIT's if it is set (memlimit.Environment); 0 means none.
func memoryLimit(opt Options) int64 {
	if opt.MaxMemory > 0 {
		return opt.MaxMemory
	}
	return memlimit.Environment()
}

// memoryInUse is the memory the process holds (memlimit.InUse), with what
// the checker maps outside the Go runtime.
func memoryInUse() int64 {
	return memlimit.InUse(offheap.Bytes())
}

// memoryGuard compares the memory in use with a limit, reading it at most
// every memCheckEvery. Each read also keeps the runtime's soft limit at
// the room the limit leaves the heap (memlimit.KeepSoft), so that the
// collector works harder as the tables outside the heap grow; run gives
// the runtime its own limit back.
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
	memlimit.KeepSoft(m.limit, offheap.Bytes())
	used := memoryInUse()
	return used, used+reserve > m.limit
}

// overMemory says why the run must stop for memory, or "". It is asked
// after each round, and reserves what the visited set would map if the
// next round stored as many states as the last (store.Growing): its
// tables grow in steps, which must not be taken past the limit.
func (e *bfs[S]) overMemory(depth int) string {
	var reserve int64
	if g, ok := e.store.(store.Growing); ok {
		reserve = g.Growth(int64(e.log.len() - e.lastRoundEnd))
	}
	e.lastRoundEnd = e.log.len()
	used, over := e.mem.over(reserve)
	if !over {
		return ""
	}
	if e.graph.Holds() {
		// The graph recorded for the liveness phase gives the search
		// its room: the phase will build it after the search.
		e.graph.Drop(liveness.DroppedForMemory)
		debug.FreeOSMemory()
		return ""
	}
	if used <= e.mem.limit {
		return fmt.Sprintf("memory limit %s reached (%s in use, %s more needed for the visited set to grow) after %d states, expanding depth %d",
			formatBytes(e.mem.limit), formatBytes(used), formatBytes(reserve), e.log.len(), depth)
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
