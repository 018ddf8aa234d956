package cli

import (
	"context"
	"fmt"
	"runtime"
	"time"
)

// memoryPoll is how often watchMemory reads the heap's size.
const memoryPoll = 100 * time.Millisecond

// watchMemory cancels ctx, with "memory limit L reached" as its cause,
// once the heap holds more than limit bytes (0: never): the limit of the
// commands whose work stops on their context (mc simulate, mc sweep),
// where mc check's checker keeps its own. It returns the context and the
// function that stops watching.
func watchMemory(ctx context.Context, limit int64) (context.Context, func()) {
	if limit <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	over := func() bool {
		var ms runtime.MemStats
		if runtime.ReadMemStats(&ms); int64(ms.HeapAlloc) > limit {
			cancel(fmt.Errorf("memory limit %s reached", bytesize(limit)))
			return true
		}
		return false
	}
	tick := time.NewTicker(memoryPoll)
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
	return ctx, func() { tick.Stop(); close(quit); cancel(nil) }
}
