package memlimit

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// Poll is how often Watch reads the memory in use: often enough that work
// allocating quickly passes the limit by little between two reads, and
// rarely enough that reading costs nothing noticeable.
const Poll = 10 * time.Millisecond

// Watch cancels ctx, with "memory limit L reached" as its cause, once the
// process holds more than limit bytes (InUse; 0: never): the limit of the
// work that stops on its context (mc simulate, mc sweep, mc-beam check).
// Meanwhile it keeps the Go runtime's soft limit at the room the limit
// leaves the runtime (KeepSoft), so that the collector works harder as the
// process nears the limit. It returns the context and the function that
// stops watching and restores the runtime's limit.
func Watch(ctx context.Context, limit int64) (context.Context, func()) {
	if limit <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	soft := debug.SetMemoryLimit(-1)
	over := func() bool {
		KeepSoft(limit, 0)
		if InUse(0) > limit {
			cancel(fmt.Errorf("memory limit %s reached", Format(limit)))
			return true
		}
		return false
	}
	tick := time.NewTicker(Poll)
	quit := make(chan struct{})
	// Read once at the start too: a limit already exceeded stops the work
	// before it begins.
	if !over() {
		go func() {
			for {
				select {
				case <-quit:
					return
				case <-tick.C:
					if over() {
						return
					}
				}
			}
		}()
	}
	return ctx, func() { tick.Stop(); close(quit); cancel(nil); debug.SetMemoryLimit(soft) }
}
