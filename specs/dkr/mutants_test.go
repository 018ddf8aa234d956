package dkr

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// handler is 002 §5.4's receive handler (recv) with its decisions as
// parameters, each the seed's in seedHandler.
type handler struct {
	// passiveFirst: a passive process relays before any active rule.
	passiveFirst bool
	// relayTwice: a passive process passes every message on twice.
	relayTwice bool
	// remember: (1, number) sets neighbourR.
	remember bool
	stays    func(neighbourR, number, max int) bool
	// second is the number an active process sends on as (2, ·) when it
	// receives (1, number), its max being max.
	second func(number, max int) int
	// adopt is the max a process that stays active takes and sends on as
	// (1, ·).
	adopt func(neighbourR, number int) int
	// dropSecond: a passive process drops (2, ·) instead of relaying it.
	dropSecond bool
	// announced is the id the process that sees its max come back
	// announces.
	announced func(sp *spec, s *State, i int, m Msg) int
	// hear handles ⟨leader m⟩ at process i.
	hear func(sp *spec, s *State, i int, m Msg) bool
}

func seedHandler() handler {
	return handler{
		passiveFirst: true,
		remember:     true,
		stays:        seedStays,
		second:       func(number, _ int) int { return number },
		adopt:        func(neighbourR, _ int) int { return neighbourR },
		announced:    func(_ *spec, _ *State, _ int, m Msg) int { return m.Number },
		hear: func(sp *spec, s *State, i int, m Msg) bool {
			return !s.Out.Hear(i, m.Number, sp.p.IDs[i]) || sp.send(s, i, m)
		},
	}
}

// into puts h in place of the system's recv.
func (h handler) into(sys *model.System[State]) {
	sp, err := newSpec(sys.Params)
	if err != nil {
		panic(err)
	}
	spectest.ReplaceDo(sys, "recv", func(s *State, i, _ int) bool {
		m := s.In[i].Recv(sp.net.Sem, 0)
		switch {
		case m.Kind == Announce:
			return h.hear(sp, s, i, m)
		case h.dropSecond && s.Mode[i] == Passive && m.Kind == Second:
			return true
		case h.passiveFirst && s.Mode[i] == Passive:
			return sp.send(s, i, m) && (!h.relayTwice || sp.send(s, i, m))
		case m.Kind == First && m.Number != s.Max[i]:
			if h.remember {
				s.NeighbourR[i] = m.Number
			}
			return sp.send(s, i, Msg{Second, h.second(m.Number, s.Max[i])})
		case m.Kind == First:
			won := h.announced(sp, s, i, m)
			s.Out.Learn(i, won, sp.p.IDs[i])
			return sp.send(s, i, Msg{Announce, won})
		case h.stays(s.NeighbourR[i], m.Number, s.Max[i]):
			s.Max[i] = h.adopt(s.NeighbourR[i], m.Number)
			return sp.originate(s, i, s.Max[i])
		}
		s.Mode[i] = Passive
		return true
	})
}

// weakStays is seedStays with ≥ for >.
func weakStays(neighbourR, number, max int) bool { return neighbourR >= number && neighbourR >= max }

// ≥ for > in the survival test is an equivalent mutant: the ids are
// distinct, and neighbourR equals number or max only when one process is
// left active, which then reads (1, max), never (2, ·). Every property
// keeps its verdict on every arrangement of 2 to 5 ids.
func TestMutantWeakStaysSurvives(t *testing.T) {
	h := seedHandler()
	h.stays = weakStays
	var ps []model.Params
	for n := 2; n <= 5; n++ {
		for _, ids := range ring.Arrangements(n) {
			ps = append(ps, model.Params{N: n, IDs: ids, Claims: true})
		}
	}
	spectest.Survives(t, New, checker.Options{}, h.into, ps)
}

// Every property of the Dolev–Klawe–Rodeh election fails on some mutant of
// its receive handler (docs/mutants.md).
func TestMutantsDKR(t *testing.T) {
	var h [15]handler
	for k := range h {
		h[k] = seedHandler()
	}
	h[0].stays = func(neighbourR, _, max int) bool { return neighbourR > max }
	h[1].stays = func(neighbourR, number, max int) bool { return neighbourR > number && neighbourR < max }
	h[2].passiveFirst = false
	h[3].remember = false
	h[4].announced = func(sp *spec, _ *State, i int, _ Msg) int { return sp.p.IDs[i] }
	h[5].hear = func(sp *spec, s *State, i int, m Msg) bool {
		if s.Out.Knows(i) {
			return sp.send(s, i, m)
		}
		s.Out.Learn(i, m.Number, sp.p.IDs[i])
		return sp.send(s, i, m)
	}
	h[6].hear = func(sp *spec, s *State, i int, m Msg) bool {
		s.Out.Hear(i, m.Number, sp.p.IDs[i])
		return true
	}
	h[7].hear = func(sp *spec, s *State, i int, m Msg) bool {
		if !s.Out.Hear(i, m.Number, sp.p.IDs[i]) {
			return true
		}
		if m.Number >= sp.p.IDs[i] {
			s.Out.Decided[i] = invariants.Leader
		}
		return sp.send(s, i, m)
	}
	h[8].hear = func(sp *spec, s *State, i int, m Msg) bool {
		if s.Out.Knows(i) {
			s.Out.Learn(i, m.Number, m.Number)
			return true
		}
		s.Out.Learn(i, m.Number, sp.p.IDs[i])
		return sp.send(s, i, m)
	}
	h[9].relayTwice = true
	h[10].adopt = func(_, number int) int { return number }
	h[11].second = func(_, max int) int { return max }
	h[12].stays = func(neighbourR, number, _ int) bool { return neighbourR > number }
	h[13].stays = weakStays
	h[14].dropSecond = true
	p := func(ids ...int) model.Params { return model.Params{N: len(ids), IDs: ids, Claims: true} }
	mutants := []spectest.Mutant[State]{
		// 13 to 15 messages at n = 3: over the seed's 2n log₂ n + n = 12.51,
		// within the 15 of ⌈log₂ n⌉.
		{Name: "comparison dropped: staying active without neighbourR > number", Rule: "(2, number): stay active if neighbourR > number and neighbourR > max", Params: p(1, 3, 2), Mutate: h[0].into,
			Kills: []string{"active-halves", "election-messages-bound"}},
		{Name: "comparison flipped: neighbourR < max", Rule: "(2, number): stay active if neighbourR > number and neighbourR > max", Params: p(1, 2), Mutate: h[1].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "rule order: a passive process handles messages as an active one", Rule: "passive: pass any message on", Params: p(1, 3, 2, 4), Mutate: h[2].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "reset dropped: (1, number) leaves neighbourR as it was", Rule: "(1, number), number ≠ max: neighbourR ← number", Params: p(1, 3, 2, 4), Mutate: h[3].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "wrong value: the process that sees its max return announces its own id", Rule: "(1, number), number = max: announce max", Params: p(2, 1, 3), Mutate: h[4].into,
			Kills: []string{"leader-is-max", "election-complete"}},
		{Name: "stop dropped: the announcement is relayed forever", Rule: "⟨leader m⟩ back at its sender: drop", Params: p(2, 1, 3), Mutate: h[5].into,
			Kills: []string{"election-terminates", "announcement-messages-bound"}},
		{Name: "announcement not relayed", Rule: "⟨leader m⟩: relay", Params: p(2, 1, 3), Mutate: h[6].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "comparison widened: hearing a leader id ≥ its own makes a process leader", Rule: "⟨leader m⟩: leader if m = id", Params: p(2, 1, 3), Mutate: h[7].into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "election-complete"}},
		{Name: "decision reset: the announcer learns the outcome afresh, as if it had won, when its announcement returns", Rule: "⟨leader m⟩ back at its sender: drop", Params: p(2, 1, 3), Mutate: h[8].into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete"}},
		{Name: "relay doubled: a passive process passes every message on twice", Rule: "passive: pass any message on", Params: p(4, 3, 2, 1), Mutate: h[9].into,
			Kills: []string{"announcement-messages-bound", "announcement-messages", "election-messages-bound"}},
		{Name: "wrong id: a process that stays active takes the second id it heard (number) for its max, not neighbourR", Rule: "(2, number): max ← neighbourR, send (1, neighbourR)",
			Params: p(1, 3, 2, 4), Mutate: h[10].into, Kills: []string{"leader-is-max", "election-complete"}},
		{Name: "wrong id: (1, number) answered with (2, max), the process's own max, not the number it heard", Rule: "(1, number), number ≠ max: send (2, number)",
			Params: p(1, 3, 2, 4), Mutate: h[11].into, Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "comparison dropped: staying active without neighbourR > max", Rule: "(2, number): stay active if neighbourR > number and neighbourR > max",
			Params: p(1, 2, 3, 4), Mutate: h[12].into, Kills: []string{"active-halves", "election-messages-bound"}},
		{Name: "comparison off by one: ≥ for > in both comparisons", Rule: "(2, number): stay active if neighbourR > number and neighbourR > max",
			Params: p(1, 3, 2, 4), Mutate: h[13].into, Survives: "equivalent: the ids are distinct, and neighbourR equals number or max only when one process is left active, which then reads (1, max), never (2, ·) (TestMutantWeakStaysSurvives)"},
		{Name: "relay dropped: a passive process swallows (2, number)", Rule: "passive: pass any message on",
			Params: p(1, 3, 2, 4), Mutate: h[14].into, Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
	}
	spectest.Suite[State]{
		Section: "dkr (002 §5.4), claims on",
		Build:   New, Options: checker.Options{MaxStates: 200000}, Mutants: mutants,
	}.Run(t)
}
