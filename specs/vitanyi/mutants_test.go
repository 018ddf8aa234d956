package vitanyi

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// withRecv is a mutant whose recv is the spec's with react, the Protocol's
// time unit at an awake processor, replaced (nil keeps it), and announced,
// what an announced processor does with a ⟨sleepwell⟩.
func withRecv(react func(sp *spec, s *State, i int, m Msg), announced func(sp *spec, s *State, i int)) func(sys *model.System[State]) {
	return func(sys *model.System[State]) {
		sp, _, err := buildSpec(sys.Params)
		if err != nil {
			panic(err)
		}
		spectest.ReplaceDo(sys, "recv", func(s *State, i, _ int) bool {
			sp.countTick(s, i)
			m := s.In[i].Recv(model.ChanSemantics{}, 0)
			s.Passed[i] = 0
			switch s.Phase[i] {
			case Asleep:
				sp.wakeUp(s, i)
			case Announced:
				if m.Kind == Sleepwell {
					if announced == nil {
						s.Phase[i] = Finished
					} else {
						announced(sp, s, i)
					}
				}
			case Awake:
				if react == nil {
					sp.react(s, i, m)
				} else {
					react(sp, s, i, m)
				}
			}
			sp.settle(s)
			return true
		})
	}
}

// reactWith is 001 §2's time unit with its comparison as a parameter:
// lower says whether M_j is lower than k (held) rather than higher (dies);
// own whether it is the processor's own M back.
func reactWith(lower, own func(j, k int) bool, dies func(sp *spec, s *State, i int, m Msg)) func(sp *spec, s *State, i int, m Msg) {
	return func(sp *spec, s *State, i int, m Msg) {
		switch {
		case m.Kind == Wakeup:
		case m.Kind == Sleepwell:
			s.Phase[i] = Slept
			sp.send(s, i, m)
		case own(m.ID, s.K[i]):
			s.Phase[i] = Announced
			sp.send(s, i, Msg{Kind: Sleepwell})
		case lower(m.ID, s.K[i]):
			s.K[i], s.Timer[i] = m.ID, sp.hold[m.ID]
		default:
			dies(sp, s, i, m)
		}
	}
}

func seedLower(j, k int) bool { return j < k }
func seedOwn(j, k int) bool   { return j == k }
func seedDies(sp *spec, s *State, i int, _ Msg) {
	sp.countDown(s, i)
}

// Every property of Vitányi's election fails on some mutant of its receive
// step (docs/mutants.md).
func TestMutantsVitanyi(t *testing.T) {
	p := func(ids ...int) model.Params { return model.Params{N: len(ids), IDs: ids, Claims: true} }
	mutants := []spectest.Mutant[State]{
		{Name: "comparison flipped: a higher M is held, a lower one dies", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(func(j, k int) bool { return j > k }, seedOwn, seedDies), nil),
			Kills:  []string{"leader-is-min", "hammer-and-anvil", "election-complete", "messages-quadratic-reached"}},
		{Name: "annihilation dropped: a higher M is passed on, not killed", Params: p(2, 1, 3),
			Mutate: withRecv(reactWith(seedLower, seedOwn, func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Elect {
					sp.send(s, i, m)
				}
				sp.countDown(s, i)
			}), nil),
			Kills: []string{"leader-is-min", "hammer-and-anvil", "election-complete", "messages-quadratic-cap"}},
		{Name: "rule order: its own M back handled as a higher one", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(seedLower, func(int, int) bool { return false }, seedDies), nil),
			Kills:  []string{"election-complete", "leader-elected", "eventually-leader", "messages-quadratic-reached"}},
		{Name: "bound off by one: an M one above k taken for the processor's own", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(seedLower, func(j, k int) bool { return j == k || j == k+1 }, seedDies), nil),
			Kills:  []string{"hammer-and-anvil", "election-complete"}},
		{Name: "comparison off by one: ≤ for <, its own M back held again", Params: model.Params{N: 3, IDs: []int{2, 1, 3}},
			Mutate: withRecv(reactWith(func(j, k int) bool { return j <= k }, func(int, int) bool { return false }, seedDies), nil),
			Kills:  []string{"leader-elected", "eventually-leader", "election-terminates"}},
		{Name: "comparison widened: a lower M taken for the processor's own", Params: p(2, 1, 3),
			Mutate: withRecv(reactWith(seedLower, func(j, k int) bool { return j <= k }, seedDies), nil),
			Kills:  []string{"leader-is-min", "hammer-and-anvil", "election-complete"}},
		{Name: "stop dropped: the announced processor passes its ⟨sleepwell⟩ on again", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(sp *spec, s *State, i int) { sp.send(s, i, Msg{Kind: Sleepwell}) }),
			Kills:  []string{"election-complete"}},
		{Name: "finish dropped: the announced processor ignores its returning ⟨sleepwell⟩", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(*spec, *State, int) {}),
			Kills:  []string{"election-complete"}},
		{Name: "decision reset: the announced processor wakes again when its ⟨sleepwell⟩ returns", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(sp *spec, s *State, i int) { s.Phase[i] = Awake }),
			Kills:  []string{"decision-stable", "election-complete"}},
		{Name: "wrong state: a processor that reads ⟨sleepwell⟩ turns announced, not slept", Params: p(2, 1, 3),
			Mutate: withRecv(func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Sleepwell {
					s.Phase[i] = Announced
					sp.send(s, i, m)
					return
				}
				sp.react(s, i, m)
			}, nil),
			Kills: []string{"at-most-one-leader", "leader-is-min", "election-complete"}},
		{Name: "announcement dropped: a processor slept by ⟨sleepwell⟩ does not pass it on", Params: p(2, 1, 3),
			Mutate: withRecv(func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Sleepwell {
					s.Phase[i] = Slept
					return
				}
				sp.react(s, i, m)
			}, nil),
			Kills: []string{"election-complete"}},
	}
	if survivors := spectest.Kill(t, New, checker.Options{MaxStates: 200000}, mutants); len(survivors) > 0 {
		t.Errorf("no mutant kills %v (docs/mutants.md)", survivors)
	}
}
