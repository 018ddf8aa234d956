package changroberts

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// withRecv is a mutant whose recv is recv, run on the net the system was
// built on.
func withRecv(recv func(net *uniring.Net, s *uniring.State, i, k int) bool) func(sys *model.System[uniring.State]) {
	return func(sys *model.System[uniring.State]) {
		net, err := uniring.NewNet(sys.Params)
		if err != nil {
			panic(err)
		}
		spectest.ReplaceDo(sys, "recv", func(s *uniring.State, i, k int) bool { return recv(net, s, i, k) })
	}
}

// recvWith is 002 §5.2's handler with its decisions as parameters: larger
// says whether ⟨elect j⟩ is passed on, answers whether a process answers a
// smaller id, own whether it is the process's own id; conclude handles the
// rest (uniring.Conclude for the seed).
func recvWith(larger func(j, me int) bool, answers func(participant bool) bool, own func(j, me int) bool,
	conclude func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool) func(net *uniring.Net, s *uniring.State, i, k int) bool {
	return func(net *uniring.Net, s *uniring.State, i, k int) bool {
		m := net.Receive(s, i, k)
		me := net.IDs[i]
		switch {
		case m.Kind == uniring.Elect && larger(m.ID, me):
			s.SetFlag(i)
			return net.Send(s, i, m)
		case m.Kind == uniring.Elect && !own(m.ID, me):
			if !answers(s.Flag(i)) {
				return true
			}
			s.SetFlag(i)
			return net.SendOwn(s, i)
		}
		return conclude(net, s, i, m)
	}
}

func seedLarger(j, me int) bool         { return j > me }
func seedAnswers(participant bool) bool { return !participant }
func seedOwn(j, me int) bool            { return j == me }
func seedConclude(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
	return net.Conclude(s, i, m)
}

// unmarkedRelay is the mutant whose process forwards a larger id without
// becoming a participant.
var unmarkedRelay = withRecv(func(net *uniring.Net, s *uniring.State, i, k int) bool {
	if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID > net.IDs[i] {
		return net.Send(s, i, net.Receive(s, i, k))
	}
	return recvWith(seedLarger, seedAnswers, seedOwn, seedConclude)(net, s, i, k)
})

// The surviving mutant of TestMutantsChangRoberts passes every property on
// every arrangement of 3 and 4 ids (and of 5, not in -short), every set of
// initiators, FIFO and bag channels: a process that relayed a larger id
// answers a smaller one at most once, and that answer is swallowed before
// it could cost more than 002 §5.2's worst case.
func TestMutantUnmarkedRelaySurvives(t *testing.T) {
	top := 5
	if testing.Short() {
		top = 4
	}
	var ps []model.Params
	for n := 3; n <= top; n++ {
		for _, ids := range ring.Arrangements(n) {
			for _, ini := range spectest.InitiatorSets(n) {
				for _, ch := range []model.ChanKind{model.FIFO, model.Bag} {
					ps = append(ps, model.Params{N: n, IDs: ids, Initiators: ini, Chan: ch, Claims: true})
				}
			}
		}
	}
	spectest.Survives(t, New, checker.Options{}, unmarkedRelay, ps)
}

// Every property of Chang–Roberts fails on some mutant of its receive
// handler, the only place the algorithm decides anything (docs/mutants.md).
func TestMutantsChangRoberts(t *testing.T) {
	desc := func(n int) model.Params { return model.Params{N: n, IDs: ring.DescendingIDs(n), Claims: true} }
	asc := model.Params{N: 4, IDs: []int{1, 2, 3, 4}, Claims: true}
	oneStarts := func(ids ...int) model.Params {
		return model.Params{N: len(ids), IDs: ids, Initiators: []int{1}, Claims: true}
	}
	mutants := []spectest.Mutant[uniring.State]{
		{Name: "comparison flipped: smaller ids passed on, larger ones answered", Rule: "⟨elect j⟩, j > id: forward",
			Params: desc(4), Mutate: withRecv(recvWith(func(j, me int) bool { return j < me }, seedAnswers, seedOwn, seedConclude)),
			Kills: []string{"leader-is-max", "elect-messages-worst-case", "learns-leader-id"}},
		{Name: "bound off by one: the id one below a process's own taken for its own", Rule: "⟨elect j⟩, j = id: elected",
			Params: asc, Mutate: withRecv(recvWith(seedLarger, seedAnswers, func(j, me int) bool { return j >= me-1 }, seedConclude)),
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete", "learns-leader-id"}},
		{Name: "guard dropped: a participant answers a smaller id again", Rule: "⟨elect j⟩, j < id: answer if not a participant",
			Params: desc(4), Mutate: withRecv(recvWith(seedLarger, func(bool) bool { return true }, seedOwn, seedConclude)),
			Kills: []string{"elect-messages-bound"}},
		{Name: "rule order: a participant swallows a larger id, as it does a smaller one", Rule: "⟨elect j⟩, j > id: forward",
			Params: desc(4), Mutate: withRecv(func(net *uniring.Net, s *uniring.State, i, k int) bool {
				if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID > net.IDs[i] && s.Flag(i) {
					net.Receive(s, i, k)
					return true
				}
				return recvWith(seedLarger, seedAnswers, seedOwn, seedConclude)(net, s, i, k)
			}),
			Kills: []string{"election-complete", "eventually-leader", "elect-messages-worst-case"}},
		{Name: "announcement dropped: the leader sends no ⟨done⟩", Rule: "⟨elect j⟩, j = id: send ⟨done id⟩",
			Params: desc(3), Mutate: withRecv(recvWith(seedLarger, seedAnswers, seedOwn, func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
				if m.Kind == uniring.Elect {
					s.Decide(i, invariants.Leader)
					return true
				}
				return net.Conclude(s, i, m)
			})),
			Kills: []string{"election-complete"}},
		{Name: "stop dropped: the leader passes its own ⟨done⟩ on, forever", Rule: "⟨done j⟩, j = id: drop",
			Params: desc(3), Mutate: withRecv(recvWith(seedLarger, seedAnswers, seedOwn, func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
				if m.Kind == uniring.Done && m.ID == net.IDs[i] {
					return net.Send(s, i, m)
				}
				return net.Conclude(s, i, m)
			})),
			Kills: []string{"election-terminates"}},
		{Name: "decision reset: the leader decides lost when its ⟨done⟩ returns", Rule: "⟨done j⟩, j = id: drop",
			Params: desc(3), Mutate: withRecv(recvWith(seedLarger, seedAnswers, seedOwn, func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
				if m.Kind == uniring.Done && m.ID == net.IDs[i] {
					s.Decide(i, invariants.Lost)
					return true
				}
				return net.Conclude(s, i, m)
			})),
			Kills: []string{"decision-stable", "election-complete"}},
		// Every decision stays right (the leader drops any ⟨done⟩), but
		// each process passes on its own id instead of the leader's: only
		// learns-leader-id sees that the others learn a wrong one.
		{Name: "announcement rewritten: a process passes on ⟨done⟩ with its own id", Rule: "⟨done j⟩, j ≠ id: forward",
			Params: desc(4), Mutate: withRecv(recvWith(seedLarger, seedAnswers, seedOwn, func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
				switch {
				case m.Kind == uniring.Done && s.Decision(i) == invariants.Leader:
					return true
				case m.Kind == uniring.Done:
					s.Decide(i, invariants.Lost)
					return net.Send(s, i, uniring.Msg{Kind: uniring.Done, ID: net.IDs[i]})
				}
				return net.Conclude(s, i, m)
			})),
			Kills: []string{"learns-leader-id"}},
		{Name: "own id dropped: a process's own ⟨elect⟩ is swallowed", Rule: "⟨elect j⟩, j = id: elected",
			Params: desc(3), Mutate: withRecv(recvWith(seedLarger, seedAnswers, func(int, int) bool { return false }, seedConclude)),
			Kills: []string{"election-complete", "leader-elected", "eventually-leader"}},
		{Name: "comparison off by one: ≥ for >, a process passes its own ⟨elect⟩ on", Rule: "⟨elect j⟩, j > id: forward",
			Params: desc(3), Mutate: withRecv(recvWith(func(j, me int) bool { return j >= me }, seedAnswers, seedOwn, seedConclude)),
			Kills: []string{"elect-messages-bound"}},
		{Name: "swallow dropped: a participant passes a smaller id on", Rule: "⟨elect j⟩, j < id: swallow if a participant",
			Params: desc(4), Mutate: withRecv(func(net *uniring.Net, s *uniring.State, i, k int) bool {
				if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID < net.IDs[i] && s.Flag(i) {
					return net.Send(s, i, net.Receive(s, i, k))
				}
				return recvWith(seedLarger, seedAnswers, seedOwn, seedConclude)(net, s, i, k)
			}),
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete", "elect-messages-bound", "learns-leader-id"}},
		{Name: "reset dropped: forwarding a larger id leaves a process a non-participant", Rule: "⟨elect j⟩, j > id: participant ← true",
			Params: oneStarts(4, 1, 3, 2), Mutate: unmarkedRelay,
			Survives: "equivalent under every claim: a process answers at most once whatever it relayed, so every id still travels at most to the next larger one (within n(n+1)/2) and the maximum still wins; no claim pins a run's message count (TestMutantUnmarkedRelaySurvives)"},
		{Name: "relay dropped: a process that learns the leader does not pass ⟨done⟩ on", Rule: "⟨done j⟩, j ≠ id: forward",
			Params: desc(3), Mutate: withRecv(recvWith(seedLarger, seedAnswers, seedOwn, func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
				if m.Kind == uniring.Done && m.ID != net.IDs[i] {
					s.Decide(i, invariants.Lost)
					return true
				}
				return net.Conclude(s, i, m)
			})),
			Kills: []string{"election-complete"}},
		{Name: "message wrong: a process answers a smaller id by passing that id on, not its own", Rule: "⟨elect j⟩, j < id: send ⟨elect id⟩ if not a participant",
			Params: oneStarts(4, 1, 3, 2), Mutate: withRecv(func(net *uniring.Net, s *uniring.State, i, k int) bool {
				if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID < net.IDs[i] && !s.Flag(i) {
					s.SetFlag(i)
					return net.Send(s, i, net.Receive(s, i, k))
				}
				return recvWith(seedLarger, seedAnswers, seedOwn, seedConclude)(net, s, i, k)
			}),
			Kills: []string{"leader-is-max", "learns-leader-id"}},
	}
	spectest.Suite[uniring.State]{
		Section: "changroberts (002 §5.2), claims on",
		Build:   New, Options: checker.Options{MaxStates: 20000}, Mutants: mutants,
	}.Run(t)
}
