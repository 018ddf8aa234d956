package reach_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker/internal/reach"
	"github.com/ringcheck/mc/model"
)

// grid is two counters, each raised by its process up to 2: 9 states, the
// state (a, b) at distance a+b from (0, 0). Init lists (0, 0) twice.
func grid() *model.System[[2]int] {
	return &model.System[[2]int]{Spec: "grid", Procs: 2, Init: [][2]int{{0, 0}, {0, 0}},
		Rules: []model.Rule[[2]int]{{Name: "inc",
			Guard: func(s *[2]int, p int) bool { return s[p] < 2 },
			Do:    func(s *[2]int, p, _ int) bool { s[p]++; return true }}},
		Copy:   func(dst, src *[2]int) { *dst = *src },
		Encode: func(buf []byte, s *[2]int) []byte { return append(buf, byte(s[0]), byte(s[1])) },
	}
}

// The walk visits each state once, breadth-first in the enumeration
// order, numbering states in the order it reaches them, and says how each
// was reached.
func TestWalkVisitsEachStateOnceBreadthFirst(t *testing.T) {
	var visited, how []string
	w := reach.Walk[[2]int]{Sys: grid(), Reached: func(n int, s, kept *[2]int, from int, a model.Action) error {
		how = append(how, fmt.Sprintf("%d:%v<%d/p%d", n, *kept, from, a.Proc))
		return nil
	}}
	states, complete, err := w.Run(context.Background(), func(v *reach.Visit[[2]int]) error {
		visited = append(visited, fmt.Sprint(v.N, *v.State))
		for range v.Steps() {
		}
		return nil
	})
	if err != nil || !complete || states != 9 {
		t.Fatalf("%d states, complete %v, %v; want 9, complete", states, complete, err)
	}
	if want := "[0 [0 0] 1 [1 0] 2 [0 1] 3 [2 0] 4 [1 1] 5 [0 2] 6 [2 1] 7 [1 2] 8 [2 2]]"; fmt.Sprint(visited) != want {
		t.Errorf("visited %v, want %s", visited, want)
	}
	if want := "[0:[0 0]<-1/p0 1:[1 0]<0/p0 2:[0 1]<0/p1 3:[2 0]<1/p0 4:[1 1]<1/p1 5:[0 2]<2/p1 6:[2 1]<3/p1 7:[1 2]<4/p1 8:[2 2]<6/p1]"; fmt.Sprint(how) != want {
		t.Errorf("reached %v, want %s", how, want)
	}
}

// The limit stops the walk, incomplete, after that many visits; an error
// of Reached or of the visit stops it and is returned, as is ctx's.
func TestWalkStops(t *testing.T) {
	expand := func(v *reach.Visit[[2]int]) error {
		for range v.Steps() {
		}
		return nil
	}
	if states, complete, err := (reach.Walk[[2]int]{Sys: grid(), Limit: 4}).Run(context.Background(), expand); states != 4 || complete || err != nil {
		t.Errorf("limit 4: %d states, complete %v, %v", states, complete, err)
	}
	if states, complete, err := (reach.Walk[[2]int]{Sys: grid(), Limit: 9}).Run(context.Background(), expand); states != 9 || !complete || err != nil {
		t.Errorf("limit 9: %d states, complete %v, %v", states, complete, err)
	}
	stop := errors.New("stop")
	w := reach.Walk[[2]int]{Sys: grid(), Reached: func(n int, _, _ *[2]int, _ int, _ model.Action) error {
		if n == 4 {
			return stop
		}
		return nil
	}}
	if states, _, err := w.Run(context.Background(), expand); states != 1 || err != stop {
		t.Errorf("Reached failing on state 4: %d states, %v; want it returned while visiting state 1", states, err)
	}
	if states, _, err := (reach.Walk[[2]int]{Sys: grid()}).Run(context.Background(), func(v *reach.Visit[[2]int]) error {
		if v.N == 2 {
			return stop
		}
		return expand(v)
	}); states != 2 || err != stop {
		t.Errorf("visit failing on state 2: %d states, %v", states, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, complete, err := (reach.Walk[[2]int]{Sys: grid()}).Run(ctx, expand); complete || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: complete %v, %v", complete, err)
	}
}
