package lelann

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// handler is 004's receive handler with its decisions as parameters: wake
// says whether a processor that has not started sends its id on its first
// message, passes whether ⟨elect j⟩ is passed on, own whether j is the
// processor's own id; conclude handles the rest (uniring.Conclude for the
// seed).
type handler struct {
	wake   bool
	passes func(j, me int) bool
	own    func(j, me int) bool
	// swallowed: a processor that swallows a smaller id decides it has
	// won, not waiting for its own id to come back.
	swallowed bool
	conclude  func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool
}

// seed is the handler as the spec has it.
func seed() handler {
	return handler{
		wake:   true,
		passes: func(j, me int) bool { return j > me },
		own:    func(j, me int) bool { return j == me },
		conclude: func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
			return net.Conclude(s, i, m)
		},
	}
}

// into puts h in place of the system's recv.
func (h handler) into(sys *model.System[uniring.State]) {
	net, err := uniring.NewNet(sys.Params)
	if err != nil {
		panic(err)
	}
	spectest.ReplaceDo(sys, "recv", func(s *uniring.State, i, k int) bool {
		m := net.Receive(s, i, k)
		if h.wake && !s.Flag(i) {
			s.SetFlag(i)
			if !net.SendOwn(s, i) {
				return false
			}
		}
		me := net.IDs[i]
		switch {
		case m.Kind == uniring.Elect && h.passes(m.ID, me):
			return net.Send(s, i, m)
		case m.Kind == uniring.Elect && !h.own(m.ID, me) && h.swallowed:
			s.Decide(i, invariants.Leader)
			return true
		case m.Kind == uniring.Elect && !h.own(m.ID, me):
			return true
		}
		return h.conclude(net, s, i, m)
	})
}

// Every property of the simple election fails on some mutant of its
// receive handler, the only place it decides anything (docs/mutants.md).
func TestMutantsLeLann(t *testing.T) {
	desc := func(n int) model.Params { return model.Params{N: n, IDs: ring.DescendingIDs(n), Claims: true} }
	flipped, offByOne, everyID, noAnnouncement, noStop, reset, ownLost, noWake := seed(), seed(), seed(), seed(), seed(), seed(), seed(), seed()
	ownOn, early, noRelay, rewritten := seed(), seed(), seed(), seed()
	ownOn.passes = func(j, me int) bool { return j >= me }
	early.swallowed = true
	noRelay.conclude = func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
		if m.Kind == uniring.Done && m.ID != net.IDs[i] {
			s.Decide(i, invariants.Lost)
			return true
		}
		return net.Conclude(s, i, m)
	}
	rewritten.conclude = func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
		switch {
		case m.Kind == uniring.Done && s.Decision(i) == invariants.Leader:
			return true
		case m.Kind == uniring.Done:
			s.Decide(i, invariants.Lost)
			return net.Send(s, i, uniring.Msg{Kind: uniring.Done, ID: net.IDs[i]})
		}
		return net.Conclude(s, i, m)
	}
	flipped.passes = func(j, me int) bool { return j < me }
	offByOne.own = func(j, me int) bool { return j >= me-1 }
	everyID.passes = func(j, me int) bool { return j != me }
	noAnnouncement.conclude = func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
		if m.Kind == uniring.Elect {
			s.Decide(i, invariants.Leader)
			return true
		}
		return net.Conclude(s, i, m)
	}
	noStop.conclude = func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
		if m.Kind == uniring.Done && m.ID == net.IDs[i] {
			return net.Send(s, i, m)
		}
		return net.Conclude(s, i, m)
	}
	reset.conclude = func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool {
		if m.Kind == uniring.Done && m.ID == net.IDs[i] {
			s.Decide(i, invariants.Lost)
			return true
		}
		return net.Conclude(s, i, m)
	}
	ownLost.own = func(int, int) bool { return false }
	noWake.wake = false
	oneStarts := desc(3)
	oneStarts.Initiators = []int{1}
	mutants := []spectest.Mutant[uniring.State]{
		{Name: "comparison flipped: smaller ids passed on, larger ones swallowed", Rule: "⟨elect j⟩, j > id: pass on", Params: desc(4), Mutate: flipped.into,
			Kills: []string{"leader-is-max", "elect-messages-worst-case"}},
		{Name: "bound off by one: the id one below a processor's own taken for its own", Rule: "⟨elect j⟩, j = id: leader", Params: model.Params{N: 4, IDs: []int{1, 2, 3, 4}, Claims: true}, Mutate: offByOne.into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable"}},
		{Name: "comparison dropped: every other id passed on", Rule: "⟨elect j⟩, j < id: swallow", Params: desc(4), Mutate: everyID.into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete", "elect-messages-bound"}},
		{Name: "announcement dropped: the leader sends no ⟨done⟩", Rule: "⟨elect j⟩, j = id: send ⟨done id⟩", Params: desc(3), Mutate: noAnnouncement.into,
			Kills: []string{"election-complete"}},
		{Name: "stop dropped: the leader passes its own ⟨done⟩ on, forever", Rule: "⟨done j⟩, j = id: drop", Params: desc(3), Mutate: noStop.into,
			Kills: []string{"election-terminates"}},
		{Name: "decision reset: the leader decides lost when its ⟨done⟩ returns", Rule: "⟨done j⟩, j = id: drop", Params: desc(3), Mutate: reset.into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "own id dropped: a processor's own ⟨elect⟩ is swallowed", Rule: "⟨elect j⟩, j = id: leader", Params: desc(3), Mutate: ownLost.into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader"}},
		{Name: "wake-up dropped: a processor that has not started never sends its id", Rule: "a processor not started sends its id on its first message", Params: oneStarts, Mutate: noWake.into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "elect-messages-worst-case"}},
		{Name: "comparison off by one: ≥ for >, a processor passes its own ⟨elect⟩ on", Rule: "⟨elect j⟩, j > id: pass on", Params: desc(3), Mutate: ownOn.into,
			Kills: []string{"elect-messages-bound"}},
		{Name: "stop early: a processor that swallows a smaller id decides it is the leader", Rule: "⟨elect j⟩, j = id: leader", Params: model.Params{N: 3, IDs: []int{1, 2, 3}, Claims: true}, Mutate: early.into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable"}},
		{Name: "relay dropped: a processor that decides lost does not pass ⟨done⟩ on", Rule: "⟨done j⟩, j ≠ id: pass on", Params: desc(3), Mutate: noRelay.into,
			Kills: []string{"election-complete"}},
		{Name: "announcement rewritten: a processor passes on ⟨done⟩ with its own id (the leader drops any ⟨done⟩)", Rule: "⟨done j⟩, j ≠ id: pass on", Params: desc(4), Mutate: rewritten.into,
			Survives: "no claim of 004 reads the id a ⟨done⟩ carries: its \"special message\" only forces the others to decide not to be leaders, which they still do (changroberts' learns-leader-id, 002 §5.2's co-ordinator, kills the same slip there)"},
	}
	spectest.Suite[uniring.State]{
		Section: "lelann (004, simpler version), claims on",
		Build:   New, Options: checker.Options{MaxStates: 20000}, Mutants: mutants,
	}.Run(t)
}
