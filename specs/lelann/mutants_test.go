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
	wake     bool
	passes   func(j, me int) bool
	own      func(j, me int) bool
	conclude func(net *uniring.Net, s *uniring.State, i int, m uniring.Msg) bool
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
		{Name: "comparison flipped: smaller ids passed on, larger ones swallowed", Params: desc(4), Mutate: flipped.into,
			Kills: []string{"leader-is-max", "elect-messages-worst-case"}},
		{Name: "bound off by one: the id one below a processor's own taken for its own", Params: model.Params{N: 4, IDs: []int{1, 2, 3, 4}, Claims: true}, Mutate: offByOne.into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable"}},
		{Name: "comparison dropped: every other id passed on", Params: desc(4), Mutate: everyID.into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete", "elect-messages-bound"}},
		{Name: "announcement dropped: the leader sends no ⟨done⟩", Params: desc(3), Mutate: noAnnouncement.into,
			Kills: []string{"election-complete"}},
		{Name: "stop dropped: the leader passes its own ⟨done⟩ on, forever", Params: desc(3), Mutate: noStop.into,
			Kills: []string{"election-terminates"}},
		{Name: "decision reset: the leader decides lost when its ⟨done⟩ returns", Params: desc(3), Mutate: reset.into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "own id dropped: a processor's own ⟨elect⟩ is swallowed", Params: desc(3), Mutate: ownLost.into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader"}},
		{Name: "wake-up dropped: a processor that has not started never sends its id", Params: oneStarts, Mutate: noWake.into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "elect-messages-worst-case"}},
	}
	if survivors := spectest.Kill(t, New, checker.Options{MaxStates: 200000}, mutants); len(survivors) > 0 {
		t.Errorf("no mutant kills %v (docs/mutants.md)", survivors)
	}
}
