package spectest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/dkr"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// recorder is a testing.TB that keeps the errors it is given.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Exercised fails a claim whose situation never arises, and counts the
// states in which one does.
func TestExercisedFailsAVacuousPass(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{3, 2, 1}, Claims: true}
	rec := &recorder{TB: t}
	_, arose := spectest.Exercised(rec, spectest.Build(t, dkr.New, p),
		spectest.Situation[dkr.State]{Claim: "election-messages-bound", State: func(s *dkr.State) bool { return s.Ghost.Sent > 1000 }},
		spectest.Situation[dkr.State]{Claim: "announcement-messages", End: func(*dkr.State) bool { return true }})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "election-messages-bound passes vacuously") {
		t.Errorf("errors %q; want one, election-messages-bound passing vacuously", rec.errors)
	}
	if arose[0].Count != 0 || arose[1].Count != 1 {
		t.Errorf("arose %v; want 0 states, and the 1 terminal state", arose)
	}
}
