package franklin

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// situations are what each claim of 002 §5.5.1 speaks of (issue 35): the
// bounds' counts above zero, a second stage entered for the halving, a
// terminal state for the announcement's count.
var situations = map[string]spectest.Situation[State]{
	"announcement-messages-bound": {State: func(s *State) bool { return s.Ghost.Announced > 0 }},
	"announcement-messages":       {End: func(*State) bool { return true }},
	"active-halves":               {State: func(s *State) bool { return s.Ghost.Most() >= 2 }},
	"election-messages-bound":     {State: func(s *State) bool { return s.Ghost.Sent > 0 }},
}

// Every claim meets its situation on the default ring (n = 5, ids
// 5,4,3,2,1), where a process enters stage 2, and passes there.
// Reference: issue 35, 002 §5.5.1.
func TestClaimsMeetTheirSituation(t *testing.T) {
	spectest.PinnedClaims(t, New, situations, spectest.Pinned{
		Params: model.Params{N: 5, IDs: []int{5, 4, 3, 2, 1}},
		Claims: []string{"announcement-messages-bound", "announcement-messages", "active-halves", "election-messages-bound"}})
}
