//go:build unix

package simulate

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/changroberts"
)

// BenchmarkSimulateChangRoberts1024 is the speed of runs of Chang–Roberts
// with every process initiating at n = 1,024, on one random arrangement
// of the ids, every property checked after every step. It reports steps/s
// of wall-clock time and steps/cpu-s, steps per second of the CPU time the
// process was given, which a machine shared with other work lowers less.
// docs/simulate.md has the figures.
func BenchmarkSimulateChangRoberts1024(b *testing.B) {
	sys, err := changroberts.New(model.Params{N: 1024, IDs: arrangement(generator(1, 0), 1024), Variant: "all-initiate", Claims: true})
	if err != nil {
		b.Fatal(err)
	}
	r := newRunner(sys)
	steps := 0
	cpu := cpuTime(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		run := r.run(context.Background(), generator(1, i), DefaultMaxSteps(1024), false, false)
		if run.Failure != nil || !run.Terminated {
			b.Fatalf("run %d: %+v", i, run)
		}
		steps += run.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(steps)/(cpuTime(b)-cpu).Seconds(), "steps/cpu-s")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
