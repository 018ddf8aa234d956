package checker_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/changroberts"
)

// BenchmarkChangRoberts explores the canonical Chang–Roberts model on the
// descending arrangement, the model the speed issue compares with SPIN and
// TLC. It reports states/s and bytes of memory per stored state.
func BenchmarkChangRoberts(b *testing.B) {
	for _, n := range []int{8, 9, 10} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				benchChangRoberts(b, n, checker.Options{Workers: w, Safety: true})
			})
		}
	}
}

// BenchmarkChangRobertsLiveness is the same model with mc's default run,
// liveness included: decided by Chang–Roberts's termination measure, it
// should cost little more than BenchmarkChangRoberts (issue #23).
func BenchmarkChangRobertsLiveness(b *testing.B) {
	for _, n := range []int{9, 10} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				benchChangRoberts(b, n, checker.Options{Workers: w})
			})
		}
	}
}

// BenchmarkChangRobertsDisk is the same model with the disk store (delayed
// duplicate detection over sorted runs); B/state is the memory the checker
// holds, which does not grow with the states stored.
func BenchmarkChangRobertsDisk(b *testing.B) {
	for _, n := range []int{9, 10} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchChangRoberts(b, n, checker.Options{Workers: 2, Safety: true, Disk: b.TempDir()})
		})
	}
}

// BenchmarkChangRobertsReduced is the same model under partial-order
// reduction (mc check --por), on rings the full exploration cannot reach.
func BenchmarkChangRobertsReduced(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchChangRoberts(b, n, checker.Options{Workers: 1, Reduce: true, Safety: true})
		})
	}
}

// benchChangRoberts runs the canonical model on n processes, descending ids,
// b.N times with opt, and reports states/s and the checker's B/state.
func benchChangRoberts(b *testing.B, n int, opt checker.Options) {
	sys, err := changroberts.New(model.Params{N: n, IDs: ring.DescendingIDs(n)})
	if err != nil {
		b.Fatal(err)
	}
	var r checker.Result
	for i := 0; i < b.N; i++ {
		r = checker.Run(context.Background(), sys, opt)
	}
	if r.Verdict != checker.Pass {
		b.Fatalf("n=%d: verdict %v (%s), want pass", n, r.Verdict, r.Reason)
	}
	b.ReportMetric(float64(r.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(r.MemoryBytes)/float64(r.States), "B/state")
}
