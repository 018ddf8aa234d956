package checker

import (
	"context"
	"fmt"
	"time"
)

// phaseGuard holds a run's limits and progress reports through the phases
// that follow the breadth-first exploration (the liveness graph and its
// search; the cost graph), so that they stop as the exploration does: on
// cancellation (Ctrl-C), on the timeout, counted from the run's start, and
// at the memory limit; and so that progress goes on, naming the phase.
type phaseGuard struct {
	ctx     context.Context
	phase   string
	start   time.Time
	timeout time.Duration
	mem     memoryGuard
	// progress, if not nil, receives a report about every every.
	progress   func(Progress)
	every      time.Duration
	nextReport time.Time
}

// newPhaseGuard returns the guard of phase for a run that started at start
// with opt. memLimit is the memory limit (0: none).
func newPhaseGuard(ctx context.Context, phase string, opt Options, start time.Time, memLimit int64) *phaseGuard {
	g := &phaseGuard{ctx: ctx, phase: phase, start: start, timeout: opt.Timeout, mem: memoryGuard{limit: memLimit},
		progress: opt.Progress, every: opt.ProgressEvery}
	if g.every <= 0 {
		g.every = time.Second
	}
	// The first report is due when the run's first would have been, or
	// now if that is past: a phase that follows a long one reports at once.
	g.nextReport = start.Add(g.every)
	return g
}

// Exceeded says why the phase must stop now, or "" to go on. reserve is the
// memory the phase will still need beyond what it holds, so that it stops
// while that still fits under the limit.
func (g *phaseGuard) Exceeded(reserve int64) string {
	switch {
	case g.ctx.Err() != nil:
		return "interrupted"
	case g.timeout > 0 && time.Since(g.start) > g.timeout:
		return fmt.Sprintf("timeout after %s", g.timeout)
	}
	used, over := g.mem.over(reserve)
	if !over {
		return ""
	}
	if reserve == 0 {
		return fmt.Sprintf("memory limit %s reached (%s in use)", formatBytes(g.mem.limit), formatBytes(used))
	}
	return fmt.Sprintf("memory limit %s reached (%s in use, %s more needed to search it)",
		formatBytes(g.mem.limit), formatBytes(used), formatBytes(reserve))
}

// report passes p, with the phase and the time since the run started, to
// the progress callback if a report is due.
func (g *phaseGuard) report(p Progress) {
	if g.progress == nil {
		return
	}
	now := time.Now()
	if now.Before(g.nextReport) {
		return
	}
	g.nextReport = now.Add(g.every)
	p.Phase, p.Elapsed = g.phase, now.Sub(g.start)
	g.progress(p)
}

// Progress reports a graph's build (liveness.Guard).
func (g *phaseGuard) Progress(states, transitions int64, depth, frontier int, bytes int64) {
	g.report(Progress{States: states, Transitions: transitions, Depth: depth, Frontier: frontier, MemoryBytes: bytes})
}
