package hs

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/biring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// situationsOf are what each claim of 002 §5.3 and 004 speaks of (issue
// 35), for either state type: the counts above zero, a process in phase
// 1 for the entrants' bound, the last phase, ⌈log₂ n⌉, reached for the
// phase bound, a terminal state for the announcement's count.
func situationsOf[P any]() map[string]spectest.Situation[biring.State[P, Msg]] {
	type S = biring.State[P, Msg]
	return map[string]spectest.Situation[S]{
		"announcement-messages-bound": {State: func(s *S) bool { return s.Ghost.Announced > 0 }},
		"announcement-messages":       {End: func(*S) bool { return true }},
		"phase-entrants-bound":        {State: func(s *S) bool { return s.Ghost.Most() >= 2 }},
		"phases-bounded":              {State: func(s *S) bool { return s.Ghost.Most() == lastPhase(len(s.P))+1 }},
		"election-messages-bound":     {State: func(s *S) bool { return s.Ghost.Sent > 0 }},
		// A candidature or a response in transit, whose path the claim
		// bounds.
		"messages-on-their-paths": {State: func(s *S) bool {
			for i := range s.Chans {
				for _, m := range s.Chans[i].Messages() {
					if m.Kind == Candidature || m.Kind == Response {
						return true
					}
				}
			}
			return false
		}},
	}
}

var claimNames = []string{"announcement-messages-bound", "announcement-messages", "phase-entrants-bound",
	"phases-bounded", "election-messages-bound", "messages-on-their-paths"}

// Every claim meets its situation at n = 4 (ids 4,3,2,1), where the
// maximum goes through every phase to ⌈log₂ 4⌉ = 2, in variants raynal and
// probe, and passes there. Variant raynal-literal, the seed's slip, is left
// out: it elects no one, so its announcement never happens, and its other
// claims fail (a failure is never vacuous).
// Reference: issue 35, 002 §5.3, 004.
func TestClaimsMeetTheirSituation(t *testing.T) {
	ids := []int{4, 3, 2, 1}
	spectest.PinnedClaims(t, NewRaynal, situationsOf[RaynalProc](),
		spectest.Pinned{Params: model.Params{N: 4, IDs: ids, Variant: "raynal"}, Claims: claimNames})
	spectest.PinnedClaims(t, NewProbe, situationsOf[ProbeProc](),
		spectest.Pinned{Params: model.Params{N: 4, IDs: ids, Variant: "probe"}, Claims: claimNames})
}
