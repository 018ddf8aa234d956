package vitanyi

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
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
	drift1 := func(ids ...int) model.Params { return model.Params{N: len(ids), IDs: ids, Drift: 1, Claims: true} }
	mutants := []spectest.Mutant[State]{
		{Name: "comparison flipped: a higher M is held, a lower one dies", Rule: "M_j, j < k: hold it f(j); j > k: it dies", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(func(j, k int) bool { return j > k }, seedOwn, seedDies), nil),
			Kills:  []string{"leader-is-min", "hammer-and-anvil", "election-complete", "messages-quadratic-reached"}},
		{Name: "annihilation dropped: a higher M is passed on, not killed", Rule: "M_j, j > k: it dies", Params: p(2, 1, 3),
			Mutate: withRecv(reactWith(seedLower, seedOwn, func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Elect {
					sp.send(s, i, m)
				}
				sp.countDown(s, i)
			}), nil),
			Kills: []string{"leader-is-min", "hammer-and-anvil", "election-complete", "messages-quadratic-cap"}},
		{Name: "rule order: its own M back handled as a higher one", Rule: "M_j, j = k: elected, send ⟨sleepwell⟩", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(seedLower, func(int, int) bool { return false }, seedDies), nil),
			Kills:  []string{"election-complete", "leader-elected", "eventually-leader", "messages-quadratic-reached"}},
		{Name: "bound off by one: an M one above k taken for the processor's own", Rule: "M_j, j = k: elected, send ⟨sleepwell⟩", Params: p(1, 2, 3),
			Mutate: withRecv(reactWith(seedLower, func(j, k int) bool { return j == k || j == k+1 }, seedDies), nil),
			Kills:  []string{"hammer-and-anvil", "election-complete"}},
		{Name: "comparison off by one: ≤ for <, its own M back held again", Rule: "M_j, j < k: hold it f(j)", Params: model.Params{N: 3, IDs: []int{2, 1, 3}},
			Mutate: withRecv(reactWith(func(j, k int) bool { return j <= k }, func(int, int) bool { return false }, seedDies), nil),
			Kills:  []string{"leader-elected", "eventually-leader", "election-terminates"}},
		{Name: "comparison widened: a lower M taken for the processor's own", Rule: "M_j, j = k: elected, send ⟨sleepwell⟩", Params: p(2, 1, 3),
			Mutate: withRecv(reactWith(seedLower, func(j, k int) bool { return j <= k }, seedDies), nil),
			Kills:  []string{"leader-is-min", "hammer-and-anvil", "election-complete"}},
		{Name: "stop dropped: the announced processor passes its ⟨sleepwell⟩ on again", Rule: "⟨sleepwell⟩ back at the elected: finish", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(sp *spec, s *State, i int) { sp.send(s, i, Msg{Kind: Sleepwell}) }),
			Kills:  []string{"election-complete"}},
		{Name: "finish dropped: the announced processor ignores its returning ⟨sleepwell⟩", Rule: "⟨sleepwell⟩ back at the elected: finish", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(*spec, *State, int) {}),
			Kills:  []string{"election-complete"}},
		{Name: "decision reset: the announced processor wakes again when its ⟨sleepwell⟩ returns", Rule: "⟨sleepwell⟩ back at the elected: finish", Params: p(2, 1, 3),
			Mutate: withRecv(nil, func(sp *spec, s *State, i int) { s.Phase[i] = Awake }),
			Kills:  []string{"decision-stable", "election-complete"}},
		{Name: "wrong state: a processor that reads ⟨sleepwell⟩ turns announced, not slept", Rule: "⟨sleepwell⟩: pass it on, go asleep", Params: p(2, 1, 3),
			Mutate: withRecv(func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Sleepwell {
					s.Phase[i] = Announced
					sp.send(s, i, m)
					return
				}
				sp.react(s, i, m)
			}, nil),
			Kills: []string{"at-most-one-leader", "leader-is-min", "election-complete"}},
		{Name: "announcement dropped: a processor slept by ⟨sleepwell⟩ does not pass it on", Rule: "⟨sleepwell⟩: pass it on, go asleep", Params: p(2, 1, 3),
			Mutate: withRecv(func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Sleepwell {
					s.Phase[i] = Slept
					return
				}
				sp.react(s, i, m)
			}, nil),
			Kills: []string{"election-complete"}},
		{Name: "annihilation dropped, the drift bounded: a higher M is passed on, not killed", Rule: "M_j, j > k: it dies", Params: drift1(1, 2, 3),
			Mutate: withRecv(reactWith(seedLower, seedOwn, func(sp *spec, s *State, i int, m Msg) {
				if m.Kind == Elect {
					sp.send(s, i, m)
				}
				sp.countDown(s, i)
			}), nil),
			Kills: []string{"leader-is-min", "hammer-and-anvil", "election-complete", "messages-quadratic-cap", "messages-within-bound", "bits-within-bound"}},
		{Name: "wrong id: a lower M held f(k), the time of the M it replaces", Rule: "M_j, j < k: k ← j, timer ← f(j)", Params: drift1(1, 2, 3),
			Mutate: holdReplaced, Survives: "timing only: 001 §2 claims correctness for every timing, and the linear bounds (2), which a hold other than f(j) could break, hold on every ring of three at drift 1 and 2, both variants (TestMutantsTimingSurvive)"},
		{Name: "bound off by one: a lower M held f(j) − 1 units", Rule: "M_j, j < k: k ← j, timer ← f(j)", Params: drift1(1, 2, 3),
			Mutate: holdShort, Survives: "as the row above (TestMutantsTimingSurvive)"},
		{Name: "reset dropped: a lower M adopted keeps the old timer", Rule: "M_j, j < k: k ← j, timer ← f(j)", Params: p(2, 1, 3),
			Mutate: withRecv(holdFor(func(_ *spec, s *State, i, _ int) int { return s.Timer[i] }), nil), Kills: []string{"election-complete", "eventually-leader"}},
		{Name: "comparison off by one: the held M sent one unit early, at timer = 1", Rule: "timer ← timer − 1; if timer = 0 send M_k", Params: drift1(1, 2, 3),
			Mutate: sendEarly, Survives: "a hold of f(j) − 1, the row two above, reached through the countdown (TestMutantsTimingSurvive)"},
	}
	spectest.Suite[State]{
		Section: "vitanyi (001 §2), drift 0, claims on",
		Build:   New, Options: checker.Options{MaxStates: 200000}, Mutants: mutants,
	}.Run(t)
}

// The timing mutants of TestMutantsVitanyi: a lower M held f(k), the time
// of the M it replaces; held f(j) − 1; sent when the timer reaches 1.
var (
	holdReplaced = withRecv(holdFor(func(sp *spec, s *State, i, _ int) int { return sp.hold[s.K[i]] }), nil)
	holdShort    = withRecv(holdFor(func(sp *spec, _ *State, _, j int) int { return sp.hold[j] - 1 }), nil)
	sendEarly    = withRecv(reactWith(seedLower, seedOwn, func(sp *spec, s *State, i int, _ Msg) {
		if s.Timer[i] == 1 {
			s.Timer[i] = 0
			sp.send(s, i, Msg{Kind: Elect, ID: s.K[i]})
			return
		}
		sp.countDown(s, i)
	}), nil)
)

// The timing mutants survive every ring of three, at drift 1 and 2, with
// f(i) = 2^i and with variant scaled: every property keeps its verdict.
// 001 §2 claims correctness for every timing, and the linear bounds, which
// a hold other than f(j) could break, hold there too.
func TestMutantsTimingSurvive(t *testing.T) {
	if testing.Short() {
		t.Skip("72 systems")
	}
	var ps []model.Params
	for _, drift := range []int{1, 2} {
		for _, v := range []string{"pow2", "scaled"} {
			for _, ids := range ring.Arrangements(3) {
				ps = append(ps, model.Params{N: 3, IDs: ids, Drift: drift, Variant: v, Claims: true})
			}
		}
	}
	for _, m := range []func(sys *model.System[State]){holdReplaced, holdShort, sendEarly} {
		spectest.Survives(t, New, checker.Options{MaxStates: 200000}, m, ps)
	}
}

// holdFor is the time unit with the time a lower M is held, timer ← f(j),
// replaced by hold(sp, s, i, j).
func holdFor(hold func(sp *spec, s *State, i, j int) int) func(sp *spec, s *State, i int, m Msg) {
	return func(sp *spec, s *State, i int, m Msg) {
		if m.Kind == Elect && m.ID < s.K[i] {
			s.K[i], s.Timer[i] = m.ID, hold(sp, s, i, m.ID)
			return
		}
		sp.react(s, i, m)
	}
}
