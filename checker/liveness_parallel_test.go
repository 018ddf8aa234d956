package checker

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ringcheck/mc/model"
)

// Any number of workers builds the same liveness graph (its batches are
// numbered in order) and reports the same verdicts and byte-identical
// lassos, in the properties' order: here several properties fail, on a
// graph of a few thousand states (many batches of expand.go), to the end
// (Continue) and at the first failure, which a passing property precedes.
func TestLivenessWorkersGiveIdenticalLassos(t *testing.T) {
	const n = 3001
	sys := ringOfJumps(n)
	sys.Props = append([]model.Property[counters]{
		model.EventuallyProp("x0-is-0", "test", "", func(s *counters) bool { return s.x[0] == 0 }),
	}, sys.Props...)
	sys.Props = append(sys.Props,
		model.LeadsToProp("one-leads-to-two", "test", "", func(s *counters) bool { return s.x[0] == 1 }, func(s *counters) bool { return s.x[0] == 2 }),
		eventually42(),
		model.LeadsToProp("ten-leads-to-five", "test", "", func(s *counters) bool { return s.x[0] == 10 }, func(s *counters) bool { return s.x[0]%5 == 0 }),
	)
	for _, fair := range []model.Fairness{model.FairNone, model.FairProcess} {
		for _, cont := range []bool{true, false} {
			var want string
			for _, workers := range []int{1, 2, 3} {
				r := Run(context.Background(), sys, Options{Workers: workers, Fair: fair, Continue: cont})
				if r.Err != nil {
					t.Fatal(r.Err)
				}
				props, err := json.Marshal(r.Props)
				if err != nil {
					t.Fatal(err)
				}
				got := string(props)
				if workers == 1 {
					want = got
					fails := 0
					for _, p := range r.Props {
						if p.Verdict == Fail {
							fails++
						}
					}
					if min := map[bool]int{true: 3, false: 1}[cont]; fails < min || r.Liveness.States != n {
						t.Fatalf("fairness %s, continue %v: %d failures, %d states; want ≥ %d failures, %d states", fair, cont, fails, r.Liveness.States, min, n)
					}
					continue
				}
				if got != want {
					t.Fatalf("fairness %s, continue %v, %d workers:\n got %s\nwant %s", fair, cont, workers, got, want)
				}
			}
		}
	}
}
