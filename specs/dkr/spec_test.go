package dkr

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// The state counts pinned in testdata/counts.tsv, with claims off and on.
func TestStateCounts(t *testing.T) {
	spectest.PinnedCounts(t, New)
}

// Every property, the claims included, holds for every arrangement of
// n ≤ 6 ids; the election's message count is the same in every run of an
// arrangement, and its worst case over the arrangements is 2n⌊log₂ n⌋ + n,
// which meets the seed's 2n log₂ n + n exactly when n is a power of 2.
// Reference: 002 §5.4 (at most log₂ n + 1 stages; 2n log n + n messages).
func TestEveryArrangementAndTheWorstMessageCount(t *testing.T) {
	maxN := 6
	if testing.Short() {
		maxN = 5 // n = 6's 720 arrangements are most of the time: CI's race run skips them
	}
	for n := 2; n <= maxN; n++ {
		worst := 0
		for _, ids := range ring.Arrangements(n) {
			if r := spectest.Check(t, New, model.Params{N: n, IDs: ids}); r.Verdict != checker.Pass {
				t.Fatalf("ids %v: %s, failure %+v", ids, r.Verdict, r.Failure())
			}
			sys, _ := New(model.Params{N: n, IDs: ids, Claims: true})
			sent := spectest.MeasureEnds(sys, func(s *State) int { return s.Ghost.Sent })
			if r := spectest.Run(t, sys, checker.Options{}); r.Verdict != checker.Pass {
				t.Fatalf("ids %v with claims: %s, failure %+v", ids, r.Verdict, r.Failure())
			}
			if sent.Lo != sent.Hi {
				t.Fatalf("ids %v: runs send between %d and %d messages", ids, sent.Lo, sent.Hi)
			}
			worst = max(worst, sent.Hi)
		}
		if want := 2*n*log2Floor(n) + n; worst != want {
			t.Errorf("n=%d: worst message count %d, want 2n⌊log₂ n⌋+n = %d", n, worst, want)
		}
	}
}

// election-messages-bound is 2n log₂ n + n as 002 §5.4 writes it, on whole
// numbers (28 at n = 5, where ⌈log₂ n⌉ gave 35); the worst case meets it
// at n = 4 (20 messages, ids 1,3,2,4) and stays within it at every size
// (TestEveryArrangementAndTheWorstMessageCount).
func TestMessageBoundAsTheSeedWritesIt(t *testing.T) {
	for n, want := range map[int]int{2: 6, 3: 12, 4: 20, 5: 28, 6: 37, 7: 46, 8: 56, 16: 144} {
		sp := &spec{p: model.Params{N: n}}
		if got := sp.messageBound(); got != want {
			t.Errorf("n=%d: bound %d, want %d = n + ⌊2n log₂ n⌋", n, got, want)
		}
	}
	sys, _ := New(model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Claims: true})
	sent := spectest.MeasureEnds(sys, func(s *State) int { return s.Ghost.Sent })
	if r := spectest.Run(t, sys, checker.Options{}); r.Verdict != checker.Pass || sent.Hi != 20 {
		t.Errorf("ids 1,3,2,4: %s, at most %d messages; want pass and 20, the bound", r.Verdict, sent.Hi)
	}
}

// The processes that join on a message (002 §5.4 (a)) and channels of
// capacity 2 keep every property. With capacity 1 no run completes: once
// every process has sent (1, id), every channel is full and every receiver
// must send (2, ·) into a full channel.
func TestInitiatorsAndCapacity(t *testing.T) {
	for _, ids := range ring.Arrangements(5) {
		for _, ini := range [][]int{nil, {0}, {1, 3}} {
			for _, c := range []int{0, 2} {
				p := model.Params{N: 5, IDs: ids, Initiators: ini, Cap: c, Claims: true}
				if r := spectest.Check(t, New, p); r.Verdict != checker.Pass {
					t.Fatalf("%+v: %s, failure %+v", p, r.Verdict, r.Failure())
				}
			}
		}
	}
	r := spectest.Check(t, New, model.Params{N: 3, IDs: []int{1, 2, 3}, Cap: 1})
	f := r.Failure()
	if r.Verdict != checker.Fail || f.Name != "election-complete" || !f.Trace.Deadlock {
		t.Fatalf("cap 1: %s, failure %+v", r.Verdict, f)
	}
	want := `start p0 (sends ⟨1, 1⟩)
start p1 (sends ⟨1, 2⟩)
start p2 (sends ⟨1, 3⟩)`
	spectest.TraceIs(t, f.Trace, want)
}

func TestBadParamsAreRefused(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{1, 2, 3}, Chan: model.Bag},
		{N: 3, IDs: []int{1, 2, 3}, Variant: "nope"},
		{N: 3, IDs: []int{1, 2, 2}},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// Ghosts never influence behaviour: erasing them gives the plain state graph.
func TestGhostErasure(t *testing.T) {
	spectest.Erasure(t, New,
		model.Params{N: 4, IDs: []int{3, 1, 4, 2}},
		model.Params{N: 5, IDs: ring.DescendingIDs(5), Initiators: []int{2}},
		model.Params{N: 6, IDs: []int{1, 2, 3, 5, 4, 6}, Cap: 2})
}

func mutant(t *testing.T, p model.Params, stays func(neighbourR, number, max int) bool) checker.Result {
	t.Helper()
	sp, err := newSpec(p)
	if err != nil {
		t.Fatal(err)
	}
	sp.stays = stays
	return spectest.Run(t, sp.system(), checker.Options{})
}

// Dropping "neighbourR > number" lets two neighbouring active processes
// both stay active. The election still ends right for every arrangement of
// n ≤ 5, but the number of active processes no longer halves: only the
// claim catches it. Reference: 002 §5.4 ("if P_i remains active its
// neighbour on the right necessarily becomes passive"). In the trace, after
// stage 1 both p0 (taking max 2, ignoring the 3 behind it) and p2 (taking
// max 3) stay active: two of three.
func TestMutantWithoutNumberComparisonBreaksHalving(t *testing.T) {
	stays := func(neighbourR, _, max int) bool { return neighbourR > max }
	for n := 2; n <= 5; n++ {
		for _, ids := range ring.Arrangements(n) {
			if r := mutant(t, model.Params{N: n, IDs: ids}, stays); r.Verdict != checker.Pass {
				t.Fatalf("ids %v: the mutant without claims %s", ids, r.Verdict)
			}
		}
	}
	r := mutant(t, model.Params{N: 3, IDs: []int{1, 3, 2}, Claims: true}, stays)
	f := r.Failure()
	if r.Verdict != checker.Fail || f.Name != "active-halves" {
		t.Fatalf("ids 1,3,2 with claims: %s, failure %+v", r.Verdict, f)
	}
	want := `start p0 (sends ⟨1, 1⟩)
start p1 (sends ⟨1, 3⟩)
start p2 (sends ⟨1, 2⟩)
recv p0 ⟨1, 2⟩
recv p1 ⟨1, 1⟩
recv p2 ⟨1, 3⟩
recv p0 ⟨2, 3⟩
recv p2 ⟨2, 1⟩`
	spectest.TraceIs(t, f.Trace, want)
}

// Flipping "neighbourR > max" to "neighbourR < max" makes the process that
// should carry the larger id on go passive: for ids 1,2 both processes go
// passive and the run ends with no leader, a deadlock: p0 (neighbourR 2 <
// max 1 fails) and p1 (neighbourR 1 > number 2 fails) both turn passive
// with nothing in transit.
func TestMutantFlippedMaxComparisonDeadlocks(t *testing.T) {
	r := mutant(t, model.Params{N: 2, IDs: []int{1, 2}}, func(neighbourR, number, max int) bool {
		return neighbourR > number && neighbourR < max
	})
	f := r.Failure()
	if r.Verdict != checker.Fail || f.Name != "election-complete" || !f.Trace.Deadlock {
		t.Fatalf("%s, failure %+v", r.Verdict, f)
	}
	want := `start p0 (sends ⟨1, 1⟩)
start p1 (sends ⟨1, 2⟩)
recv p0 ⟨1, 2⟩
recv p1 ⟨1, 1⟩
recv p0 ⟨2, 1⟩
recv p1 ⟨2, 2⟩`
	spectest.TraceIs(t, f.Trace, want)
}

// The footprints tell the truth (por.CheckFootprints) on every
// arrangement of 4 ids, with every process or one starting, channels of
// capacity 1, and claims.
func TestFootprints(t *testing.T) {
	for _, ids := range ring.Arrangements(4) {
		spectest.Footprints(t, New, model.Params{N: 4, IDs: ids}, model.Params{N: 4, IDs: ids, Initiators: []int{1}},
			model.Params{N: 4, IDs: ids, Cap: 1}, model.Params{N: 4, IDs: ids, Claims: true})
	}
}

// Under partial-order reduction the election is a single run: a process
// must start before it receives, and each process's steps depend only on
// the messages that reach it, in FIFO order, so every interleaving leads
// to the same decisions in the same order. The reduced graph is one path,
// as long as the longest run (testdata/counts.tsv); every verdict is the full run's.
func TestReducedStateCounts(t *testing.T) {
	for _, ids := range [][]int{ring.DescendingIDs(6), {3, 1, 5, 2, 6, 4}} {
		sys := spectest.Build(t, New, model.Params{N: len(ids), IDs: ids})
		full, red := spectest.SameVerdicts(t, checker.Of(sys), "dkr")
		if full.Verdict != checker.Pass || !red.Reduced || red.States != int64(red.Depth)+1 {
			t.Errorf("ids %v: full %s, reduced %d states depth %d; want pass, and a path", ids, full.Verdict, red.States, red.Depth)
		}
	}
}

// Both mutants are found with reduction on: the broken halving by its
// claim, the deadlock as a terminal state; their traces replay.
func TestMutantsFoundUnderReduction(t *testing.T) {
	halving := func(neighbourR, _, max int) bool { return neighbourR > max }
	flipped := func(neighbourR, number, max int) bool { return neighbourR > number && neighbourR < max }
	for _, c := range []struct {
		p     model.Params
		stays func(neighbourR, number, max int) bool
		fails string
	}{
		{model.Params{N: 3, IDs: []int{1, 3, 2}, Claims: true}, halving, "active-halves"},
		{model.Params{N: 2, IDs: []int{1, 2}}, flipped, "election-complete"},
	} {
		sp, err := newSpec(c.p)
		if err != nil {
			t.Fatal(err)
		}
		sp.stays = c.stays
		spectest.FailsReduced(t, sp.system(), c.fails)
	}
}
