package franklin

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func check(t *testing.T, p model.Params) checker.Result { return spectest.Check(t, New, p) }

// The state counts pinned in testdata/counts.tsv, with claims off and on.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// Every property and claim holds for every arrangement of n ≤ 6 ids, one
// per rotation class (1, 1, 2, 6, 24 and 120 of them; the registry's test
// checks that rotation is a symmetry), the termination measure decides
// liveness, and the worst cases are those pinned: stages ≤ 1 + ⌊log₂ n⌋,
// and 2n ⟨id⟩ messages per stage. Reference: 002 §5.5.1.
func TestEveryArrangementWithClaims(t *testing.T) {
	want := map[int][2]int{2: {2, 8}, 3: {2, 12}, 4: {3, 24}, 5: {3, 30}, 6: {3, 36}}
	maxN := 6
	if testing.Short() {
		maxN = 5 // n = 6's 120 classes are most of the time: CI's race run skips them
	}
	for n := 2; n <= maxN; n++ {
		var most [2]int
		for _, cl := range ring.ArrangementClasses(n, ring.Rotation) {
			r := check(t, model.Params{N: n, IDs: cl.Rep, Claims: true})
			if r.Verdict != checker.Pass {
				t.Fatalf("ids %v: %s, failure %+v", cl.Rep, r.Verdict, r.Failure())
			}
			spectest.DecidedByMeasure(t, &r, fmt.Sprint("ids ", cl.Rep))
			most = [2]int{max(most[0], spectest.Measure(t, &r, "stages")), max(most[1], spectest.Measure(t, &r, "election-messages"))}
		}
		if most != want[n] || most[0] > maxStages(n) || most[1] > messageBound(n) {
			t.Errorf("n=%d: worst %d stages, %d ⟨id⟩ messages; want %v, within %d and %d", n, most[0], most[1], want[n], maxStages(n), messageBound(n))
		}
	}
}

// With one initiator, the others wake on their first message (002 §5.4
// (a)); the election still completes.
func TestEveryInitiator(t *testing.T) {
	for _, cl := range ring.ArrangementClasses(5, ring.Rotation) {
		for q := 0; q < 5; q++ {
			if r := check(t, model.Params{N: 5, IDs: cl.Rep, Initiators: []int{q}}); r.Verdict != checker.Pass {
				t.Fatalf("ids %v, initiator %d: %s", cl.Rep, q, r.Verdict)
			}
		}
	}
}

func TestBadParamsAreRefused(t *testing.T) {
	if _, err := New(model.Params{N: 3, IDs: []int{1, 2, 3}, Chan: model.Bag}); err == nil {
		t.Fatal("bag channels accepted: stages would mix")
	}
	if _, err := New(model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "nope"}); err == nil {
		t.Fatal("unknown variant accepted")
	}
	if _, err := New(model.Params{N: 3, IDs: []int{1, 2, 3}, Duplex: model.HalfDuplex}); err == nil {
		t.Fatal("half-duplex links accepted")
	}
}

func TestGhostErasure(t *testing.T) {
	spectest.Erasure(t, New,
		model.Params{N: 4, IDs: []int{4, 1, 3, 2}},
		model.Params{N: 5, IDs: []int{1, 3, 5, 2, 4}, Initiators: []int{1}})
}

// mutant builds the spec with claims on and judge in place of compare.
func mutant(t *testing.T, ids []int, judge func(me, left, right int) verdict) *model.System[State] {
	t.Helper()
	sp, sys, err := build(model.Params{N: len(ids), IDs: ids, Claims: true})
	if err != nil {
		t.Fatal(err)
	}
	sp.judge = judge
	return sys
}

// mustFail checks that the mutant fails property name with a trace (none
// for a witness), and no property it should not.
func mustFail(t *testing.T, sys *model.System[State], name string, opt checker.Options) checker.PropResult {
	t.Helper()
	r := spectest.Run(t, sys, opt)
	pr := spectest.Prop(t, &r, name)
	if pr.Verdict != checker.Fail || (pr.Kind != model.Witness && pr.Trace == nil) {
		t.Fatalf("%s: %s with trace %v; the mutant should break it", name, pr.Verdict, pr.Trace != nil)
	}
	spectest.FailsReduced(t, sys, name) // found with partial-order reduction too
	return pr
}

// A process that survives when it beats either neighbour, not both, lets
// three of four processes survive stage 1 with ids ascending round the
// ring. Reference: 002 §5.5.1 ("divided by at least 2 at each stage").
func TestClaimActiveHalveCatchesAMutant(t *testing.T) {
	sys := mutant(t, []int{1, 2, 3, 4}, func(me, left, right int) verdict {
		if left == me && right == me {
			return wins
		}
		if me > left || me > right {
			return survives
		}
		return loses
	})
	mustFail(t, sys, "active-halves", checker.Options{})
}

// Comparing with ≥, the last active process takes its own id for a
// neighbour's and starts stage after stage: ⟨id⟩ messages pass the bound
// (the ghost counter saturates just above it, so the run stays finite).
// Reference: 002 §5.5.1 (2n(1 + log n) messages).
func TestClaimMessagesBoundCatchesAMutant(t *testing.T) {
	sys := mutant(t, []int{3, 1, 2}, func(me, left, right int) verdict {
		if me >= left && me >= right {
			return survives
		}
		return loses
	})
	pr := mustFail(t, sys, "election-messages-bound", checker.Options{})
	last := pr.Trace.Steps[len(pr.Trace.Steps)-1].Changes
	if got := last[len(last)-1]; got.Name != "ghost.sent" || got.Value != fmt.Sprint(messageBound(3)+1) {
		t.Fatalf("the failing step ends with %v, want ghost.sent = %d", got, messageBound(3)+1)
	}
}

// Declaring victory on hearing one id from both sides makes both of the
// last two active processes leaders.
func TestAtMostOneLeaderCatchesAMutant(t *testing.T) {
	sys := mutant(t, []int{4, 1, 3, 2}, func(me, left, right int) verdict {
		if left == right {
			return wins
		}
		return compare(me, left, right)
	})
	mustFail(t, sys, "at-most-one-leader", checker.Options{})
}

// Comparing the wrong way round elects the minimum: one leader, the wrong
// one.
func TestLeaderIsMaxCatchesAMutant(t *testing.T) {
	sys := mutant(t, []int{4, 1, 3, 2}, func(me, left, right int) verdict {
		if left == me && right == me {
			return wins
		}
		if me < left && me < right {
			return survives
		}
		return loses
	})
	mustFail(t, sys, "leader-is-max", checker.Options{})
	if r := spectest.Run(t, sys, checker.Options{}); spectest.Prop(t, &r, "at-most-one-leader").Verdict != checker.Pass {
		t.Fatal("the min-electing mutant should still elect only one")
	}
}

// A process that gives up on its own id never wins: the witness fails.
func TestLeaderElectedCatchesAMutant(t *testing.T) {
	sys := mutant(t, []int{4, 1, 3, 2}, func(me, left, right int) verdict {
		if v := compare(me, left, right); v != wins {
			return v
		}
		return loses
	})
	mustFail(t, sys, "leader-elected", checker.Options{})
	mustFail(t, sys, "election-complete", checker.Options{})
}

// wrapRecv replaces the recv rule's effect by f, which gets the message the
// receive would take (peeked on a copy) and the original effect.
func wrapRecv(sp *spec, sys *model.System[State], f func(s *State, i, k int, port ring.Port, m Msg, orig func(*State, int, int) bool) bool) {
	orig := sys.Rules[1].Do
	sys.Rules[1].Do = func(s *State, i, k int) bool {
		var c State
		sys.Copy(&c, s)
		port, m := sp.net.Recv(&c, i, k, open(s, i))
		return f(s, i, k, port, m, orig)
	}
}

// A winner that takes its returning announcement for news decides lost
// after leader.
func TestDecisionStableCatchesAMutant(t *testing.T) {
	sp, sys, _ := build(model.Params{N: 4, IDs: []int{4, 1, 3, 2}})
	wrapRecv(sp, sys, func(s *State, i, k int, _ ring.Port, m Msg, orig func(*State, int, int) bool) bool {
		ok := orig(s, i, k)
		if m.Kind == Leader && s.P[i].Status == Won {
			s.Out.Decided[i] = invariants.Lost
		}
		return ok
	})
	mustFail(t, sys, "decision-stable", checker.Options{})
}

// A winner that stops receiving leaves its announcement in a channel:
// everyone knows the leader, yet the run ends with a message in transit,
// which election-complete reports as a deadlock.
func TestElectionCompleteCatchesAMutant(t *testing.T) {
	sys, _ := New(model.Params{N: 4, IDs: []int{4, 1, 3, 2}})
	guard, choices := sys.Rules[1].Guard, sys.Rules[1].Choices
	sys.Rules[1].Guard = func(s *State, i int) bool { return s.P[i].Status != Won && guard(s, i) }
	sys.Rules[1].Choices = func(s *State, i int) int {
		if s.P[i].Status == Won {
			return 0
		}
		return choices(s, i)
	}
	pr := mustFail(t, sys, "election-complete", checker.Options{})
	var actions []model.Action
	for _, st := range pr.Trace.Steps {
		actions = append(actions, st.Action)
	}
	end, err := checker.Replay(sys, pr.Trace.Init, actions)
	if err != nil {
		t.Fatal(err)
	}
	for i := range end.P {
		if end.Out.Leader[i] != 4 {
			t.Fatalf("p%d does not know the winner in the deadlock state", i)
		}
	}
	if !pr.Trace.Deadlock || end.Chans[2*0+int(ring.Left)].String() != "[⟨leader 4⟩]" {
		t.Fatalf("deadlock %v, channels %v; want ⟨leader 4⟩ stuck at p0", pr.Trace.Deadlock, end.Chans)
	}
}

// The picture for mc's drawings: each process's two input channels are
// links from its neighbours, and a start puts ⟨id⟩ on both of p0's.
func TestView(t *testing.T) {
	sys, _ := New(model.Params{N: 3, IDs: []int{2, 3, 1}})
	var s State
	if !sys.Apply(&sys.Init[0], model.Action{Rule: 0, Proc: 0}, &s) {
		t.Fatal("start p0 is not enabled")
	}
	v := sys.View(&s)
	if len(v.Procs) != 3 || len(v.Chans) != 6 || v.Procs[0].Label != "id 2" {
		t.Fatalf("view %+v", v)
	}
	for _, l := range v.Chans {
		want := 0
		if (l.From == 0 && l.To == 1 && l.Name == "p1.in.left") || (l.From == 0 && l.To == 2 && l.Name == "p2.in.right") {
			want = 1
		}
		if len(l.Msgs) != want || (want == 1 && l.Msgs[0] != "⟨id 2⟩") {
			t.Fatalf("link %+v", l)
		}
	}
}

// The footprints and the claims' reads tell the truth
// (por.CheckFootprints) on every arrangement of 4 ids, with every
// process or one starting, bags, channels of capacity 1, and claims.
func TestFootprints(t *testing.T) {
	for _, ids := range ring.Arrangements(4) {
		spectest.Footprints(t, New, model.Params{N: 4, IDs: ids}, model.Params{N: 4, IDs: ids, Initiators: []int{1}},
			model.Params{N: 4, IDs: ids, Cap: 1}, model.Params{N: 4, IDs: ids, Claims: true})
	}
}

// Reduction on the bidirectional ring: a receive takes from two channels,
// so it waits for the senders to whichever of them is empty, its two
// neighbours', and a process's actions are rarely independent of theirs.
// It stores about half the states on the descending arrangement (the
// counts: testdata/counts.tsv), every verdict the full run's.
func TestReducedStateCounts(t *testing.T) {
	sys := spectest.Build(t, New, model.Params{N: 6, IDs: ring.DescendingIDs(6)})
	full, red := spectest.SameVerdicts(t, checker.Of(sys), "franklin")
	if full.Verdict != checker.Pass || !red.Reduced || red.States >= full.States {
		t.Errorf("full %s %d states, reduced %v %d; want pass and fewer states reduced", full.Verdict, full.States, red.Reduced, red.States)
	}
}
