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

// Exercised fails a claim whose declared situation never arises, and
// counts the states in which one does: here a claim about runs of more
// than 1,000 messages, and the announcement's count, whose situation is
// the one terminal state.
func TestExercisedFailsAVacuousPass(t *testing.T) {
	sys := spectest.Build(t, dkr.New, model.Params{N: 3, IDs: []int{3, 2, 1}, Claims: true})
	sys.Props = append(sys.Props, model.InvariantProp("long-runs-cheap", "test", "", func(*dkr.State) bool { return true }).
		When("no run sent more than 1,000 messages", func(s *dkr.State) bool { return s.Ghost.Sent > 1000 }))
	rec := &recorder{TB: t}
	_, arose := spectest.Exercised(rec, sys, spectest.Situation[dkr.State]{Claim: "long-runs-cheap"},
		spectest.Situation[dkr.State]{Claim: "announcement-messages"})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "long-runs-cheap passes vacuously") ||
		!strings.Contains(rec.errors[0], "(the checker: no run sent more than 1,000 messages)") {
		t.Errorf("errors %q; want one, long-runs-cheap passing vacuously", rec.errors)
	}
	if arose[0].Count != 0 || arose[1].Count != 1 {
		t.Errorf("arose %v; want 0 states, and the 1 terminal state", arose)
	}
}
