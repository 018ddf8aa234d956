package changroberts

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// The state counts pinned in testdata/counts.tsv: the canonical model's
// (reproduced by an independent model checker), bag channels, initiator
// subsets and bounded channels, the variants, and partial-order reduction
// on the descending arrangement, which stores far fewer states than SPIN's
// reduction on its hand-written model of the same algorithm (585, 3,895
// and 23,797 states for n = 6, 8, 10, depth-first; bench/changroberts_xr.pml),
// every verdict unchanged and every reachable terminal state kept.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// Every property holds for every arrangement of n ≤ 6 ids.
func TestCanonicalPassesEveryArrangement(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for _, ids := range ring.Arrangements(n) {
			r := spectest.Check(t, New, model.Params{N: n, IDs: ids})
			if r.Verdict != checker.Pass {
				t.Fatalf("ids %v: verdict %s, failure %+v", ids, r.Verdict, r.Failure())
			}
		}
	}
}

func TestBagChannelsAndInitiatorSubsets(t *testing.T) {
	for _, ids := range ring.Arrangements(5) {
		for _, q := range []int{0, 2} {
			r := spectest.Check(t, New, model.Params{N: 5, IDs: ids, Chan: model.Bag, Initiators: []int{q}})
			if r.Verdict != checker.Pass {
				t.Fatalf("bag, ids %v, initiator %d: %s", ids, q, r.Verdict)
			}
		}
	}
}

func labels(tr *checker.Trace) string {
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Label)
	}
	return fmt.Sprint(out)
}

// Seed 002 §5.2 as printed: a non-participant maximum swallows the only
// election message and no leader is ever elected. Reference: seeds README,
// "Known slips".
func TestRaynalLiteralDeadlocksWithOneInitiator(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}}
	r := spectest.Check(t, New, p)
	if r.Verdict != checker.Fail {
		t.Fatalf("verdict %s, want fail", r.Verdict)
	}
	end := spectest.Prop(t, &r, "election-complete")
	if end.Verdict != checker.Fail || !end.Trace.Deadlock {
		t.Fatalf("election-complete %s, deadlock %v", end.Verdict, end.Trace != nil && end.Trace.Deadlock)
	}
	want := "[start p0 (sends ⟨elect 3⟩) recv p1 ⟨elect 3⟩ recv p2 ⟨elect 3⟩]"
	if got := labels(end.Trace); got != want {
		t.Fatalf("deadlock trace %s, want %s", got, want)
	}
	if spectest.Prop(t, &r, "leader-elected").Verdict != checker.Fail {
		t.Fatal("leader-elected should fail: no run elects anyone")
	}
	if r.Failure().Name != "election-complete" {
		t.Fatalf("reported failure %s, want election-complete", r.Failure().Name)
	}

	// The trace replays to a terminal state with no leader and quiet channels.
	sys, _ := New(p)
	var actions []model.Action
	for _, s := range end.Trace.Steps {
		actions = append(actions, s.Action)
	}
	s, err := checker.Replay(sys, end.Trace.Init, actions)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Quiet() || s.Decision(2) != 0 || !s.Flag(0) || s.Flag(2) {
		t.Fatalf("replayed state %+v: want quiet, p2 (the maximum) undecided and not a participant", s)
	}
	for _, rule := range sys.Rules {
		for q := 0; q < sys.Procs; q++ {
			if rule.ChoicesAt(&s, q) > 0 {
				t.Fatalf("replayed state is not terminal: %s p%d enabled", rule.Name, q)
			}
		}
	}
}

// With every process an initiator the literal reading still elects the
// maximum in every run: the maximum starts on its own, and a participant
// that answers a smaller id only re-sends its own. It costs more states
// (515 against 75 for ids 3,1,4,2: testdata/counts.tsv), and it passes for every arrangement of
// n ≤ 5.
func TestRaynalLiteralWithEveryInitiatorElectsTheMaximum(t *testing.T) {
	for n := 2; n <= 5; n++ {
		for _, ids := range ring.Arrangements(n) {
			if r := spectest.Check(t, New, model.Params{N: n, IDs: ids, Variant: "raynal-literal"}); r.Verdict != checker.Pass {
				t.Fatalf("literal, ids %v: %s", ids, r.Verdict)
			}
		}
	}
}

// With one initiator, the literal reading fails exactly when the initiator
// is not the maximum.
func TestRaynalLiteralFailsExactlyWhenTheInitiatorIsNotTheMaximum(t *testing.T) {
	for _, ids := range ring.Arrangements(4) {
		r := spectest.Check(t, New, model.Params{N: 4, IDs: ids, Variant: "raynal-literal", Initiators: []int{0}})
		if want := ids[0] != 4; (r.Verdict == checker.Fail) != want {
			t.Fatalf("ids %v: verdict %s, want fail=%v", ids, r.Verdict, want)
		}
	}
}

func TestUnknownVariantIsRefused(t *testing.T) {
	if _, err := New(model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "nope"}); err == nil {
		t.Fatal("unknown variant accepted")
	}
}

// Chang–Roberts sends at most n(n+1)/2 ⟨elect⟩ messages in every run, for
// every arrangement. Reference: 002 §5.2 (worst case n(n+1)/2).
func TestClaimElectMessagesBound(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for _, ids := range ring.Arrangements(n) {
			r := spectest.Check(t, New, model.Params{N: n, IDs: ids, Claims: true})
			if r.Verdict != checker.Pass || spectest.Prop(t, &r, "elect-messages-bound").Verdict != checker.Pass {
				t.Fatalf("ids %v with claims: %s", ids, r.Verdict)
			}
		}
	}
}

// The descending arrangement reaches exactly n(n+1)/2 in some run, and the
// witness shows that run. Reference: 002 §5.2 (ids in decreasing order).
func TestClaimDescendingReachesTheWorstCase(t *testing.T) {
	for n := 3; n <= 7; n++ {
		r := spectest.Check(t, New, model.Params{N: n, IDs: ring.DescendingIDs(n), Claims: true})
		w := spectest.Prop(t, &r, "elect-messages-worst-case")
		if w.Verdict != checker.Pass || w.Trace == nil {
			t.Fatalf("n=%d: worst-case witness %s", n, w.Verdict)
		}
		last := w.Trace.Steps[len(w.Trace.Steps)-1].Changes
		if got := last[len(last)-1]; got.Name != "ghost.elect_sent" || got.Value != fmt.Sprint(n*(n+1)/2) {
			t.Fatalf("n=%d: witness run ends with %v", n, got)
		}
	}
	// An arrangement that is not descending has no such witness to offer.
	r := spectest.Check(t, New, model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Claims: true})
	for _, p := range r.Props {
		if p.Name == "elect-messages-worst-case" {
			t.Fatal("worst-case witness offered for 3,1,4,2")
		}
	}
}

// Ghosts never influence behaviour: erasing them gives the plain state graph.
func TestGhostErasure(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}},
		{N: 5, IDs: ring.DescendingIDs(5), Chan: model.Bag},
		{N: 4, IDs: []int{2, 4, 1, 3}, Variant: "raynal-literal"},
	} {
		plain, _ := New(p)
		p.Claims = true
		ghosted, _ := New(p)
		if err := checker.CheckErasure(context.Background(), ghosted, plain); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
}

// A mutant whose ghost leaks into behaviour (a process stops answering once
// three messages were sent) is caught by the erasure check.
func TestGhostErasureCatchesALeak(t *testing.T) {
	p := model.Params{N: 4, IDs: ring.DescendingIDs(4)}
	plain, _ := New(p)
	p.Claims = true
	ghosted, _ := New(p)
	guard := ghosted.Rules[0].Guard
	ghosted.Rules[0].Guard = func(s *uniring.State, i int) bool { return guard(s, i) && s.ElectSent() < 3 }
	if err := checker.CheckErasure(context.Background(), ghosted, plain); err == nil {
		t.Fatal("a guard that reads the ghost passed the erasure check")
	}
}

// Termination is two checks: every terminal state is good (election-complete)
// and no fair run is infinite. The graph has no cycle at all, so every run
// ends and eventually-leader holds under every fairness, none included.
// Reference: 002 §5.2.
func TestEventuallyALeaderUnderEveryFairness(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}},
		{N: 5, IDs: ring.DescendingIDs(5), Chan: model.Bag},
	} {
		sys, _ := New(p)
		for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
			r := spectest.Run(t, sys, checker.Options{Fair: f})
			if r.Verdict != checker.Pass || r.Liveness.Cycles != 0 || spectest.Prop(t, &r, "eventually-leader").Verdict != checker.Pass {
				t.Fatalf("%+v, fairness %s: %s, %d cycles", p, f, r.Verdict, r.Liveness.Cycles)
			}
		}
	}
}

// The seed's slip read literally stops without a leader: a finite maximal
// run that never elects one is a counterexample to eventually-leader, under
// every fairness; the run ends, so election-terminates holds and
// election-complete is what fails at its end.
func TestRaynalLiteralNeverElectsOnSomeRun(t *testing.T) {
	r := spectest.Check(t, New, model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}})
	p := spectest.Prop(t, &r, "eventually-leader")
	if p.Verdict != checker.Fail || !p.Trace.Deadlock || p.Trace.LoopStart != nil || len(p.Trace.Steps) != 3 {
		t.Fatalf("eventually-leader: %s, trace %+v", p.Verdict, p.Trace)
	}
	// It does stop: the run is finite, so it terminates, badly.
	if v := spectest.Prop(t, &r, "election-terminates").Verdict; v != checker.Pass {
		t.Fatalf("election-terminates: %s", v)
	}
}

// Variant all-initiate starts with every ⟨elect id(i)⟩ on its link: every
// property holds for every arrangement of n ≤ 5, start is never taken, and
// the descending ring of 5 has 137 states (testdata/counts.tsv). The ghost counts the n initial
// ⟨elect⟩ as sent, so the claims hold too. The message counts themselves are
// pinned by the sweep (sweep/sweep_test.go).
func TestAllInitiate(t *testing.T) {
	for n := 2; n <= 5; n++ {
		for _, ids := range ring.Arrangements(n) {
			r := spectest.Check(t, New, model.Params{N: n, IDs: ids, Variant: "all-initiate", Claims: true})
			if r.Verdict != checker.Pass {
				t.Fatalf("ids %v: verdict %s, failure %+v", ids, r.Verdict, r.Failure())
			}
		}
	}
	sys, err := New(model.Params{N: 3, IDs: []int{3, 1, 2}, Variant: "all-initiate"})
	if err != nil {
		t.Fatal(err)
	}
	if sys.Init[0].Pending(1) != 1 || !sys.Init[0].Flag(2) || sys.Rules[0].Guard(&sys.Init[0], 0) {
		t.Error("initial state: want ⟨elect⟩ pending on every link, every process a participant, start disabled")
	}
	if _, err := New(model.Params{N: 3, IDs: []int{3, 1, 2}, Variant: "all-initiate", Initiators: []int{0}}); err == nil {
		t.Error("all-initiate with one initiator accepted")
	}
	if _, err := New(model.Params{N: 3, IDs: []int{3, 1, 2}, Variant: "all-initiate", Cap: 1}); err != nil {
		t.Errorf("all-initiate with capacity 1 refused: %v", err)
	}
}

// The footprints of start and recv tell the truth: actions they call
// independent commute, and actions outside a closure change nothing in it.
func TestFootprints(t *testing.T) {
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}},
		{N: 4, IDs: []int{3, 1, 4, 2}, Chan: model.Bag},
		{N: 4, IDs: []int{2, 4, 1, 3}, Cap: 1},
		{N: 4, IDs: []int{3, 1, 4, 2}, Claims: true},
		{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0, 2}},
	} {
		sys, _ := New(p)
		if err := por.CheckFootprints(context.Background(), sys); err != nil {
			t.Errorf("%s: %v", p.String(), err)
		}
	}
}

// The slip of 002 §5.2 is found under reduction too: the deadlock is a
// terminal state, and reduction keeps every terminal state.
func TestRaynalLiteralDeadlockFoundUnderReduction(t *testing.T) {
	sys, _ := New(model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}})
	r := spectest.Run(t, sys, checker.Options{Reduce: true, Safety: true})
	end := spectest.Prop(t, &r, "election-complete")
	if !r.Reduced || r.Verdict != checker.Fail || end.Verdict != checker.Fail || !end.Trace.Deadlock {
		t.Fatalf("reduced %v: %s, election-complete %s", r.Reduced, r.Verdict, end.Verdict)
	}
}

// A seeded bug, found with reduction on: a participant that receives a
// smaller id takes itself for the leader instead of swallowing it. With
// ids 3,1,4,2, p0 (id 3) does so on p3's ⟨elect 2⟩, and only p2 (id 4) may
// lead. The trace is a real run (replayed), if not a shortest one.
func TestSeededBugFoundUnderReduction(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{3, 1, 4, 2}}
	sys, _ := New(p)
	net, _ := uniring.NewNet(p)
	recv := sys.Rules[1].Do
	sys.Rules[1].Do = func(s *uniring.State, i, k int) bool {
		if m := net.Peek(s, i, k); m.Kind == uniring.Elect && m.ID < p.IDs[i] && s.Flag(i) {
			net.Receive(s, i, k)
			s.Decide(i, invariants.Leader)
			return true
		}
		return recv(s, i, k)
	}
	full := spectest.Run(t, sys, checker.Options{Safety: true})
	red := spectest.Run(t, sys, checker.Options{Reduce: true, Safety: true})
	for _, r := range []checker.Result{full, red} {
		if f := r.Failure(); r.Verdict != checker.Fail || f.Name != "leader-is-max" || f.Trace == nil {
			t.Fatalf("mutant (reduced %v): verdict %s, failure %+v", r.Reduced, r.Verdict, f)
		}
	}
	// The reduced run's counterexample is twice as long as the shortest.
	if !red.Reduced || red.States != 88 || full.States != 137 || len(red.Failure().Trace.Steps) != 6 || len(full.Failure().Trace.Steps) != 3 {
		t.Fatalf("reduced run: %d states, trace of %d steps; full: %d states, %d steps",
			red.States, len(red.Failure().Trace.Steps), full.States, len(full.Failure().Trace.Steps))
	}
}
