package example

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The state counts at n = 3 and 4 pinned in testdata/counts.tsv: those of
// the default variant are the registered changroberts' (the example is the
// same model, built from the shared vocabulary instead of changroberts'
// byte layout).
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// The seed's slip read literally (002 §5.2, "j < my_number and
// participant"): started by p0 alone, the maximum p2 is not a participant
// and swallows ⟨elect 3⟩, so nobody is ever elected. It kills the
// properties that ask for an outcome: election-complete (a deadlock),
// leader-elected and eventually-leader.
func TestRaynalLiteralDeadlocks(t *testing.T) {
	r := spectest.Check(t, New, model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}})
	end := spectest.Prop(t, &r, "election-complete")
	if end.Verdict != checker.Fail || !end.Trace.Deadlock {
		t.Fatalf("election-complete %s, want a deadlock", end.Verdict)
	}
	spectest.TraceIs(t, end.Trace, "start p0\nrecv p1 ⟨elect 3⟩\nrecv p2 ⟨elect 3⟩")
	for _, name := range []string{"leader-elected", "eventually-leader"} {
		if v := spectest.Prop(t, &r, name).Verdict; v != checker.Fail {
			t.Errorf("%s: %s, want fail", name, v)
		}
	}
}

// Vars name the variables traces print. The view is what mc trace's chart
// and mc explore draw, and the messages each step sent and received are
// read off it (checker.Messages): here, along the literal variant's
// deadlock, ⟨elect 3⟩ hops from p0 to p2 and is swallowed there.
func TestVarsAndViewShowEachStep(t *testing.T) {
	sys := spectest.Build(t, New, model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}})
	steps := []struct {
		a              model.Action
		sent, received string
	}{
		{model.Action{Rule: 0, Proc: 0}, "p0→p1 ⟨elect 3⟩", ""},
		{model.Action{Rule: 1, Proc: 1}, "p1→p2 ⟨elect 3⟩", "p0→p1 ⟨elect 3⟩"},
		{model.Action{Rule: 1, Proc: 2}, "", "p1→p2 ⟨elect 3⟩"},
	}
	vars := sys.Vars(&sys.Init[0])
	if len(vars) != 12 || fmt.Sprint(vars[:3]) != "[{p0.participant false} {p0.decided undecided} {p0.in []}]" {
		t.Errorf("initial variables %v, want participant, decided and in for each of 4 processes", vars)
	}
	var s, next State
	sys.Copy(&s, &sys.Init[0])
	for _, st := range steps {
		if !sys.Apply(&s, st.a, &next) {
			t.Fatalf("%s is not enabled", sys.Label(&s, st.a))
		}
		before, after := sys.View(&s), sys.View(&next)
		sent, received := checker.Messages(&before, &after)
		if got, want := render(sent)+" / "+render(received), st.sent+" / "+st.received; got != want {
			t.Errorf("%s: sent / received %s, want %s", sys.Label(&s, st.a), got, want)
		}
		s, next = next, s
	}
	if got := sys.View(&s).Procs[2]; got.Label != "id 4" || got.Status != "" {
		t.Errorf("p2 at the deadlock: %+v, want id 4, undecided", got)
	}
}

func render(ms []checker.Message) string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("p%d→p%d %s", m.From, m.To, m.Text))
	}
	return strings.Join(out, ", ")
}

// specOf rebuilds the spec behind sys, for a mutant to call its methods.
func specOf(sys *model.System[State]) *spec {
	p := sys.Params
	return &spec{p: p, net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}}
}

// withRecv is the system for p with recv replaced by a mutant: mutate runs
// after the real recv, with the message it took.
func withRecv(t *testing.T, p model.Params, mutate func(sp *spec, s *State, i int, m Msg) bool) *model.System[State] {
	sys := spectest.Build(t, New, p)
	sp := specOf(sys)
	sys.Rules[1].Do = func(s *State, i, k int) bool {
		_, m := s.In.Peek(sp.net, i, k, ring.OnlyLeft)
		return sp.recv(s, i, k) && mutate(sp, s, i, m)
	}
	return sys
}

// ownDone reports whether m is i's own ⟨done⟩, come back round the ring.
func ownDone(sp *spec, i int, m Msg) bool { return m.Kind == Done && m.ID == sp.p.IDs[i] }

// Each property is shown able to fail by a mutant of the spec that breaks
// what it claims (or, for the outcome properties, by the literal variant
// above).
func TestMutantsKillEachProperty(t *testing.T) {
	p := model.Params{N: 3, IDs: ring.DescendingIDs(3)}
	cases := []struct {
		prop string
		sys  *model.System[State]
	}{
		// A process that forwards a larger id also takes itself for the leader.
		{"at-most-one-leader", withRecv(t, p, func(sp *spec, s *State, i int, m Msg) bool {
			if m.Kind == Elect && m.ID > sp.p.IDs[i] {
				s.Decided[i] = invariants.Leader
			}
			return true
		})},
		// The leader, hearing its own announcement back, decides it lost.
		{"decision-stable", withRecv(t, p, func(sp *spec, s *State, i int, m Msg) bool {
			if ownDone(sp, i, m) {
				s.Decided[i] = invariants.Lost
			}
			return true
		})},
		// The leader sends its own announcement round again, forever.
		{"election-terminates", withRecv(t, p, func(sp *spec, s *State, i int, m Msg) bool {
			return !ownDone(sp, i, m) || sp.send(s, i, m)
		})},
		{"leader-is-max", electsTheMinimum(t, p)},
	}
	for _, c := range cases {
		t.Run(c.prop, func(t *testing.T) {
			r := spectest.Run(t, c.sys, checker.Options{})
			if v := spectest.Prop(t, &r, c.prop).Verdict; v != checker.Fail {
				t.Fatalf("%s survives the mutant: %s", c.prop, v)
			}
		})
	}
}

// electsTheMinimum is the spec with every comparison of ids turned round:
// its processes run on the ids mirrored (id ↦ max+1−id), while its
// properties still speak of the real ones. Exactly one process, the
// minimum, is elected, so leader-is-max is the only property that fails.
func electsTheMinimum(t *testing.T, p model.Params) *model.System[State] {
	sys := spectest.Build(t, New, p)
	mirror := specOf(sys)
	top := sys.Params.MaxID()
	mirror.p.IDs = make([]int, p.N)
	for i, id := range sys.Params.IDs {
		mirror.p.IDs[i] = top + 1 - id
	}
	sys.Rules[0].Do, sys.Rules[1].Do = mirror.start, mirror.recv
	sys.Rules[1].Label = mirror.recvLabel
	return sys
}

func TestElectingTheMinimumFailsOnlyLeaderIsMax(t *testing.T) {
	r := spectest.Run(t, electsTheMinimum(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}}), checker.Options{})
	for _, pr := range r.Props {
		if want := pr.Name != "leader-is-max"; (pr.Verdict == checker.Pass) != want {
			t.Errorf("%s: %s", pr.Name, pr.Verdict)
		}
	}
}
