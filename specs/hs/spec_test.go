package hs

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func raynalSys(t *testing.T, p model.Params) *model.System[RaynalState] {
	t.Helper()
	sys, err := NewRaynal(p)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func probeSys(t *testing.T, p model.Params) *model.System[ProbeState] {
	t.Helper()
	sys, err := NewProbe(p)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// worst is the most phases a process entered (counting phase 0) and the
// most election messages sent, over every state of a complete run.
func worst(t *testing.T, r *checker.Result) [2]int {
	t.Helper()
	return [2]int{spectest.Measure(t, r, "phases"), spectest.Measure(t, r, "election-messages")}
}

// most is the larger of a and b in each place.
func most(a, b [2]int) [2]int { return [2]int{max(a[0], b[0]), max(a[1], b[1])} }

// The state counts pinned in testdata/counts.tsv: its probe rows are
// NewProbe's systems, the others NewRaynal's.
func TestStateCounts(t *testing.T) {
	var raynal, probe []spectest.CountRow
	for _, row := range spectest.CountRows(t) {
		if row.Params.Variant == "probe" {
			probe = append(probe, row)
		} else {
			raynal = append(raynal, row)
		}
	}
	spectest.CheckCounts(t, NewRaynal, raynal)
	spectest.CheckCounts(t, NewProbe, probe)
}

// noReinitiation is a step property for the sweep: no process that knows
// the winner becomes a candidate again (package doc: the seed would let it,
// and with FIFO channels it never happens).
func noReinitiation() model.Property[RaynalState] {
	return model.StepProp("no-reinitiation", "test", "no process that knows the winner becomes a candidate again",
		func(b *RaynalState, _ model.Action, a *RaynalState) bool {
			for i := range b.P {
				if b.Out.Knows(i) && b.P[i].State != Candidate && a.P[i].State == Candidate {
					return false
				}
			}
			return true
		})
}

// Variant raynal: every property and claim holds for every arrangement of
// n ≤ 5 ids, one per rotation class (1, 1, 2, 6 and 24 of them; the
// registry's test checks that rotation is a symmetry), no process starts
// again after ⟨ended⟩, the termination measure decides liveness, and the
// worst cases are those pinned (phases counted
// from phase 0; election messages without the announcement's n).
// Reference: 002 §5.3; 004 Lemma 13.9.
func TestRaynalEveryArrangementWithClaims(t *testing.T) {
	want := map[int][2]int{2: {2, 12}, 3: {3, 26}, 4: {3, 40}, 5: {4, 62}}
	maxN := 5
	if testing.Short() {
		maxN = 4 // n = 5's 24 classes with claims are most of the time: CI's race run skips them
	}
	for n := 2; n <= maxN; n++ {
		var w [2]int
		for _, cl := range ring.ArrangementClasses(n, ring.Rotation) {
			sys := raynalSys(t, model.Params{N: n, IDs: cl.Rep, Claims: true})
			sys.Props = append(sys.Props, noReinitiation())
			r := spectest.Run(t, sys, checker.Options{})
			if r.Verdict != checker.Pass {
				t.Fatalf("ids %v: %s, failure %+v", cl.Rep, r.Verdict, r.Failure())
			}
			spectest.DecidedByMeasure(t, &r, fmt.Sprint("raynal ids ", cl.Rep))
			w = most(w, worst(t, &r))
		}
		if w != want[n] {
			t.Errorf("n=%d: worst %d phases, %d messages; want %v", n, w[0], w[1], want[n])
		}
	}
}

// Variant probe: every property and claim holds for every arrangement of
// n ≤ 5 ids, one per rotation class, the termination measure decides
// liveness, and the worst cases are those pinned.
// Reference: 004 Theorem 13.8, Lemma 13.9; 002 §5.3.
func TestProbeEveryArrangementWithClaims(t *testing.T) {
	want := map[int][2]int{2: {2, 10}, 3: {3, 23}, 4: {3, 32}, 5: {4, 55}}
	for n := 2; n <= 5; n++ {
		if got := probeWorst(t, n, 1); got != want[n] {
			t.Errorf("n=%d: worst %d phases, %d messages; want %v", n, got[0], got[1], want[n])
		}
	}
}

// probeWorst checks every k-th rotation class of n ids with claims on and
// returns the most phases and election messages found.
func probeWorst(t *testing.T, n, k int) [2]int {
	t.Helper()
	var w [2]int
	for c, cl := range ring.ArrangementClasses(n, ring.Rotation) {
		if c%k != 0 {
			continue
		}
		r := spectest.Check(t, NewProbe, model.Params{N: n, IDs: cl.Rep, Claims: true})
		if r.Verdict != checker.Pass {
			t.Fatalf("ids %v: %s, failure %+v", cl.Rep, r.Verdict, r.Failure())
		}
		spectest.DecidedByMeasure(t, &r, fmt.Sprint("probe ids ", cl.Rep))
		w = most(w, worst(t, &r))
	}
	return w
}

// Variant probe at n = 6: every sixth of the 120 rotation classes (20
// arrangements) passes with claims on.
func TestProbeSixProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (CI's race run): n = 6 is checked by the full suite")
	}
	if got, want := probeWorst(t, 6, 6), [2]int{4, 68}; got != want {
		t.Errorf("n=6: worst %d phases, %d messages; want %v", got[0], got[1], want)
	}
}

// Rotating the ids gives the same state graph at n = 5 too (the registry's
// test stops at n = 4 for hs).
func TestProbeRotationIsASymmetry(t *testing.T) {
	ids := []int{2, 5, 1, 4, 3}
	want := spectest.Run(t, probeSys(t, model.Params{N: 5, IDs: ids}), checker.Options{})
	for r := 1; r < 5; r++ {
		rot := append(append([]int(nil), ids[r:]...), ids[:r]...)
		got := spectest.Run(t, probeSys(t, model.Params{N: 5, IDs: rot}), checker.Options{})
		if got.States != want.States || got.Transitions != want.Transitions || got.Depth != want.Depth {
			t.Fatalf("ids %v: %d states %d transitions, unlike %v's %d, %d", rot, got.States, got.Transitions, ids, want.States, want.Transitions)
		}
	}
}

// With one initiator the others start (raynal) or wake (probe) on their
// first message, and the election completes.
func TestEveryInitiator(t *testing.T) {
	for _, cl := range ring.ArrangementClasses(4, ring.Rotation) {
		for q := 0; q < 4; q++ {
			p := model.Params{N: 4, IDs: cl.Rep, Initiators: []int{q}, Claims: true}
			if r := spectest.Run(t, raynalSys(t, p), checker.Options{}); r.Verdict != checker.Pass {
				t.Fatalf("raynal ids %v, initiator %d: %s", cl.Rep, q, r.Verdict)
			}
			if r := spectest.Run(t, probeSys(t, p), checker.Options{}); r.Verdict != checker.Pass {
				t.Fatalf("probe ids %v, initiator %d: %s", cl.Rep, q, r.Verdict)
			}
		}
	}
}

// 002 §5.3 as printed: the maximum starts, wins both comparisons, and gives
// up; its neighbours, lost, never start; no leader is ever elected, and the
// run ends in a deadlock. Reference: seeds README, "Known slips".
func TestRaynalLiteralDeadlocks(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{3, 2, 1}, Variant: "raynal-literal"}
	r := spectest.Check(t, NewRaynal, p)
	end := spectest.Prop(t, &r, "election-complete")
	if r.Verdict != checker.Fail || end.Verdict != checker.Fail || !end.Trace.Deadlock {
		t.Fatalf("verdict %s, election-complete %s", r.Verdict, end.Verdict)
	}
	spectest.TraceIs(t, end.Trace, `initiate p0 (sendLR ⟨candidature 3 lg 0 lgmax 1⟩)
recv p1 ⟨candidature 3 lg 0 lgmax 1⟩ from left
recv p0 ⟨response T 3⟩ from right
recv p2 ⟨candidature 3 lg 0 lgmax 1⟩ from right
recv p0 ⟨response T 3⟩ from left
resume p0 (nresp = 2, respOK = T)`)
	if spectest.Prop(t, &r, "leader-elected").Verdict != checker.Fail {
		t.Fatal("leader-elected should fail: no run elects anyone")
	}
	// It fails for every arrangement of n ≤ 4.
	for n := 2; n <= 4; n++ {
		for _, cl := range ring.ArrangementClasses(n, ring.Rotation) {
			p := model.Params{N: n, IDs: cl.Rep, Variant: "raynal-literal"}
			if r := spectest.Check(t, NewRaynal, p); spectest.Prop(t, &r, "leader-elected").Verdict != checker.Fail {
				t.Fatalf("literal, ids %v: a leader is elected", cl.Rep)
			}
		}
	}
}

// As printed, a candidate that loses a comparison goes on to the next
// phase: here p2 (id 2), two hops from the maximum, loses to p3 (id 3)
// phase after phase, once p0 has made p1 and p3 lost and given up itself.
// It passes phase ⌈log₂ n⌉, and every claim about phases and messages
// fails. Reference: 004 Lemma 13.9, Theorem 13.10; 002 §5.3.
func TestRaynalLiteralPhasesGrowWithoutBound(t *testing.T) {
	r := spectest.Check(t, NewRaynal, model.Params{N: 4, IDs: []int{4, 1, 2, 3}, Variant: "raynal-literal", Claims: true})
	for _, name := range []string{"phases-bounded", "phase-entrants-bound", "election-messages-bound"} {
		if pr := spectest.Prop(t, &r, name); pr.Verdict != checker.Fail || pr.Trace == nil {
			t.Errorf("%s: %s; raynal-literal should break it", name, pr.Verdict)
		}
	}
	tr := spectest.Prop(t, &r, "phases-bounded").Trace
	if last := tr.Steps[len(tr.Steps)-1]; last.Label != "resume p2 (nresp = 2, respOK = F)" || !changes(last, "ghost.p2.phases", "4") {
		t.Fatalf("phases-bounded fails on %q %v; want p2 entering phase 3", last.Label, last.Changes)
	}
}

// With bag channels (--chan bag) variant raynal breaks Lemma 13.9: a loser
// that learnt the winner is not_involved again, a late smaller candidature
// makes it start anew, and a stale favourable response counts for its new
// phase; every run still ends (the termination measure holds). With FIFO channels this cannot happen (TestRaynalEveryArrangement
// checks no-reinitiation). Reference: 004 Lemma 13.9.
func TestRaynalBagChannelsBreakLemma139(t *testing.T) {
	r := spectest.Check(t, NewRaynal, model.Params{N: 3, IDs: []int{3, 2, 1}, Chan: model.Bag, Claims: true})
	pr := spectest.Prop(t, &r, "phase-entrants-bound")
	if pr.Verdict != checker.Fail || len(pr.Trace.Steps) != 27 {
		t.Fatalf("phase-entrants-bound %s; want a failure in 27 steps", pr.Verdict)
	}
	want := []string{"recv p1 ⟨ended 3⟩ from left", "recv p1 ⟨candidature 1 lg 0 lgmax 1⟩ from right",
		"recv p1 ⟨response T 2⟩ from right", "recv p2 ⟨candidature 2 lg 0 lgmax 1⟩ from left",
		"recv p1 ⟨response T 2⟩ from right", "resume p1 (nresp = 2, respOK = T)"}
	for i, w := range want {
		if got := pr.Trace.Steps[21+i].Label; got != w {
			t.Fatalf("step %d: %s, want %s", 22+i, got, w)
		}
	}
	if end := spectest.Prop(t, &r, "election-complete"); end.Verdict != checker.Pass {
		t.Fatal("with bags the election still completes")
	}
	spectest.DecidedByMeasure(t, &r, "raynal on bags") // every run still ends
}

func TestVariantsAreResolved(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{1, 2, 3}}
	for _, v := range []string{"", "raynal", "raynal-literal", "probe"} {
		p.Variant = v
		if _, _, err := Build(p); err != nil {
			t.Errorf("variant %q: %v", v, err)
		}
	}
	p.Variant = "nope"
	if _, _, err := Build(p); err == nil {
		t.Error("unknown variant accepted")
	}
	if _, err := NewProbe(model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "raynal"}); err == nil {
		t.Error("NewProbe accepted variant raynal")
	}
	if _, err := NewRaynal(model.Params{N: 3, IDs: []int{1, 2, 3}, Variant: "probe"}); err == nil {
		t.Error("NewRaynal accepted variant probe")
	}
	for _, bad := range []model.Params{{N: 3, IDs: []int{1, 2, 3}, Duplex: model.HalfDuplex}, {N: 3, IDs: []int{1, 2, 3}, Orientation: []bool{false, true, false}}} {
		if _, _, err := Build(bad); err == nil {
			t.Errorf("%+v accepted: hs has full-duplex links and a common orientation", bad)
		}
		if _, err := NewProbe(bad); err == nil {
			t.Errorf("probe accepted %+v", bad)
		}
	}
}

func TestGhostErasure(t *testing.T) {
	spectest.Erasure(t, NewRaynal,
		model.Params{N: 4, IDs: []int{3, 1, 4, 2}},
		model.Params{N: 3, IDs: []int{3, 2, 1}, Variant: "raynal-literal"})
	spectest.Erasure(t, NewProbe,
		model.Params{N: 4, IDs: []int{3, 1, 4, 2}},
		model.Params{N: 3, IDs: []int{3, 1, 2}, Chan: model.Bag})
}

// changes reports whether step sets variable name to value.
func changes(step checker.Step, name, value string) bool {
	for _, v := range step.Changes {
		if v.Name == name {
			return v.Value == value
		}
	}
	return false
}

// mustFail checks that sys fails property name, with a trace unless it is
// a witness.
func mustFail[S any](t *testing.T, sys *model.System[S], name string) checker.PropResult {
	t.Helper()
	r := spectest.Run(t, sys, checker.Options{})
	pr := spectest.Prop(t, &r, name)
	if pr.Verdict != checker.Fail || (pr.Kind != model.Witness && pr.Trace == nil) {
		t.Fatalf("%s: %s; the mutant should break it", name, pr.Verdict)
	}
	spectest.FailsReduced(t, sys, name) // found with partial-order reduction too
	return pr
}

// raynalMutant builds variant raynal with claims on and replaces the effect
// of the recv rule by f, which gets the port and message the receive would
// take (peeked on a copy), or of the resume rule by g; nil keeps a rule.
func raynalMutant(t *testing.T, ids []int,
	f func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) (handled, ok bool),
	g func(sp *raynal, s *RaynalState, i int) bool) *model.System[RaynalState] {
	t.Helper()
	sp, sys, err := buildRaynal(model.Params{N: len(ids), IDs: ids, Claims: true})
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		recv := sys.Rules[2].Do
		sys.Rules[2].Do = func(s *RaynalState, i, k int) bool {
			var c RaynalState
			sys.Copy(&c, s)
			port, m := sp.net.Recv(&c, i, k, ring.BothPorts)
			if handled, ok := f(sp, s, i, port, m); handled {
				sp.net.Recv(s, i, k, ring.BothPorts)
				return ok
			}
			return recv(s, i, k)
		}
	}
	if g != nil {
		sys.Rules[1].Do = func(s *RaynalState, i, _ int) bool { return g(sp, s, i) }
	}
	return sys
}

// A process at the hop limit that answers T even when its id is larger
// lets neighbours both enter phase 1. Reference: 004 Lemma 13.9.
func TestClaimPhaseEntrantsBoundCatchesAMutant(t *testing.T) {
	sys := raynalMutant(t, []int{3, 2, 1}, func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) (bool, bool) {
		if m.Kind != Candidature || m.ID >= sp.params.IDs[i] || m.Hops+1 < 1<<m.Phase {
			return false, false
		}
		ok := sp.net.Send(s, i, port, Msg{Kind: Response, ID: m.ID, OK: true})
		if ok && s.P[i].State == NotInvolved {
			ok = sp.initiate(s, i, 0)
		}
		return true, ok
	}, nil)
	mustFail(t, sys, "phase-entrants-bound")
}

// A candidate that never doubles lgmax asks its neighbours again and again:
// the messages pass the bound (the ghost counter saturates just above it).
// Reference: 002 §5.3 (8n(1 + log n)).
func TestClaimElectionMessagesBoundCatchesAMutant(t *testing.T) {
	sys := raynalMutant(t, []int{3, 2, 1}, nil, func(sp *raynal, s *RaynalState, i int) bool {
		p := &s.P[i]
		lost := !p.RespOK
		p.Waiting, p.NResp, p.RespOK = false, 0, true
		if lost {
			p.become(Lost)
		}
		if p.State != Candidate {
			return true
		}
		return sp.round(s, i) // lgmax stays
	})
	pr := mustFail(t, sys, "election-messages-bound")
	if last := pr.Trace.Steps[len(pr.Trace.Steps)-1]; !changes(last, "ghost.sent", fmt.Sprint(messageBound(3)+1)) {
		t.Fatalf("the failing step changes %v, want ghost.sent = %d", last.Changes, messageBound(3)+1)
	}
}

// A candidate that declares itself elected after winning phase 0 makes two
// leaders when two local maxima win it.
func TestAtMostOneLeaderCatchesAMutant(t *testing.T) {
	sys := raynalMutant(t, []int{3, 1, 4, 2}, nil, func(sp *raynal, s *RaynalState, i int) bool {
		p := &s.P[i]
		p.Waiting = false
		if p.RespOK && p.State == Candidate {
			p.become(Elected)
			s.Out.Learn(i, sp.params.IDs[i], sp.params.IDs[i])
		}
		return true
	})
	mustFail(t, sys, "at-most-one-leader")
}

// Comparing ids the wrong way round elects the minimum: one leader, the
// wrong one. The mutant runs the spec on complemented ids and checks the
// properties of the real ones.
func TestLeaderIsMaxCatchesAMutant(t *testing.T) {
	ids := []int{3, 1, 4, 2}
	flipped := make([]int, len(ids))
	for i, id := range ids {
		flipped[i] = len(ids) + 1 - id
	}
	sys := raynalSys(t, model.Params{N: 4, IDs: flipped})
	sys.Props = invariants.OutcomeProperties(RefRaynal, invariants.MaxWinner(ids, RefRaynal),
		func(s *RaynalState) *invariants.Outcome { return &s.Out }, func(s *RaynalState) bool { return s.Chans.Quiet() })
	mustFail(t, sys, "leader-is-max")
	r := spectest.Run(t, sys, checker.Options{})
	if spectest.Prop(t, &r, "at-most-one-leader").Verdict != checker.Pass {
		t.Fatal("the mutant still elects one leader")
	}
}

// A winner that takes its returning ⟨ended⟩ for news decides lost after
// leader.
func TestDecisionStableCatchesAMutant(t *testing.T) {
	sys := raynalMutant(t, []int{3, 1, 4, 2}, func(sp *raynal, s *RaynalState, i int, _ ring.Port, m Msg) (bool, bool) {
		if m.Kind != Ended || s.P[i].State != Elected {
			return false, false
		}
		s.Out.Decided[i] = invariants.Lost
		return true, true
	}, nil)
	mustFail(t, sys, "decision-stable")
}

// A winner that does not pass ⟨ended⟩ leaves the others undecided: the run
// ends in a deadlock.
func TestElectionCompleteCatchesAMutant(t *testing.T) {
	sys := raynalMutant(t, []int{3, 1, 4, 2}, func(sp *raynal, s *RaynalState, i int, _ ring.Port, m Msg) (bool, bool) {
		me := sp.params.IDs[i]
		if m.Kind != Candidature || m.ID != me || s.P[i].State == Elected {
			return false, false
		}
		s.P[i].become(Elected)
		s.Out.Learn(i, me, me)
		return true, true
	}, nil)
	if pr := mustFail(t, sys, "election-complete"); !pr.Trace.Deadlock {
		t.Fatal("the failure should be a deadlock")
	}
}

// probeMutant builds variant probe with claims on; f replaces the handling
// of the maximum's own probes.
func probeMutant(t *testing.T, ids []int, f func(sp *probe, s *ProbeState, i int, port ring.Port, m Msg) bool) *model.System[ProbeState] {
	t.Helper()
	sp, sys, err := buildProbe(model.Params{N: len(ids), IDs: ids, Claims: true})
	if err != nil {
		t.Fatal(err)
	}
	recv := sys.Rules[1].Do
	sys.Rules[1].Do = func(s *ProbeState, i, k int) bool {
		var c ProbeState
		sys.Copy(&c, s)
		port, m := sp.net.Recv(&c, i, k, ring.BothPorts)
		if m.Kind != Probe || m.ID != sp.params.IDs[i] || s.P[i].Asleep {
			return recv(s, i, k)
		}
		sp.net.Recv(s, i, k, ring.BothPorts)
		return f(sp, s, i, port, m)
	}
	return sys
}

// A processor that swallows its own probe never becomes leader: the
// witness fails, and so does every terminal state.
func TestLeaderElectedCatchesAMutant(t *testing.T) {
	sys := probeMutant(t, []int{3, 1, 4, 2}, func(*probe, *ProbeState, int, ring.Port, Msg) bool { return true })
	mustFail(t, sys, "leader-elected")
	mustFail(t, sys, "election-complete")
}

// A processor that passes its own probe on, as if it came from a larger
// one, gets replies and enters phase after phase. Reference: 004 Theorem
// 13.10.
func TestClaimPhasesBoundedCatchesAMutant(t *testing.T) {
	sys := probeMutant(t, []int{3, 1, 2}, func(sp *probe, s *ProbeState, i int, port ring.Port, m Msg) bool {
		if m.Hops > 0 {
			return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Probe, ID: m.ID, Phase: m.Phase, Hops: m.Hops - 1})
		}
		return sp.net.Send(s, i, port, Msg{Kind: Reply, ID: m.ID, Phase: m.Phase})
	})
	mustFail(t, sys, "phases-bounded")
}

// The announcement takes n messages: a winner that sends ⟨terminate⟩ both
// ways sends n+1 and more.
func TestClaimAnnouncementCatchesAMutant(t *testing.T) {
	sys := probeMutant(t, []int{3, 1, 2}, func(sp *probe, s *ProbeState, i int, port ring.Port, m Msg) bool {
		if s.Out.Decided[i] != invariants.Undecided {
			return true
		}
		s.Out.Decided[i] = invariants.Leader
		return sp.net.Send(s, i, ring.Left, Msg{Kind: Terminate}) && sp.net.Send(s, i, ring.Right, Msg{Kind: Terminate})
	})
	mustFail(t, sys, "announcement-messages-bound")
}

// The footprints and the claims' reads tell the truth
// (por.CheckFootprints) for every variant on every arrangement of 3
// ids, with channels of capacity 1, one initiator and claims; with bags on
// 2 ids for raynal's variants (10^4 to 10^5 states on 3, and the check
// tries every pair of actions in each) and 3 for probe, which is also
// checked on one arrangement of 4.
func TestFootprints(t *testing.T) {
	build := func(p model.Params) (*model.System[RaynalState], error) { return NewRaynal(p) }
	for _, v := range []string{"raynal", "raynal-literal"} {
		for _, ids := range ring.Arrangements(3) {
			spectest.Footprints(t, build, model.Params{N: 3, IDs: ids, Variant: v}, model.Params{N: 3, IDs: ids, Variant: v, Cap: 1},
				model.Params{N: 3, IDs: ids, Variant: v, Initiators: []int{1}}, model.Params{N: 3, IDs: ids, Variant: v, Claims: true})
		}
		spectest.Footprints(t, build, model.Params{N: 2, IDs: []int{1, 2}, Variant: v, Chan: model.Bag})
	}
	for _, ids := range ring.Arrangements(3) {
		spectest.Footprints(t, NewProbe, model.Params{N: 3, IDs: ids}, model.Params{N: 3, IDs: ids, Chan: model.Bag},
			model.Params{N: 3, IDs: ids, Cap: 1}, model.Params{N: 3, IDs: ids, Initiators: []int{1}}, model.Params{N: 3, IDs: ids, Claims: true})
	}
	spectest.Footprints(t, NewProbe, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})
}

// Reduction on the bidirectional ring: a receive takes from two channels,
// so it waits for the senders to whichever of them is empty, its two
// neighbours'; a candidate's actions are rarely independent of theirs. On
// the descending arrangement of 5 it stores 37% (raynal) and 47% (probe,
// testdata/counts.tsv) of the states, every verdict the full run's. The
// slip of 002 §5.3 is found too: raynal-literal deadlocks for ids 3,2,1,
// and every deadlock is a terminal state, which reduction keeps.
func TestReducedStateCounts(t *testing.T) {
	for _, p := range []model.Params{
		{N: 5, IDs: ring.DescendingIDs(5)},
		{N: 5, IDs: ring.DescendingIDs(5), Variant: "probe"},
	} {
		raynal, probe, err := Build(p)
		if err != nil {
			t.Fatal(err)
		}
		var tg checker.Target
		if probe != nil {
			tg = checker.Of(probe)
		} else {
			tg = checker.Of(raynal)
		}
		full, red := spectest.SameVerdicts(t, tg, "hs "+p.Variant)
		if full.Verdict != checker.Pass || !red.Reduced || red.States >= full.States {
			t.Errorf("%s: full %s %d states, reduced %v %d; want pass and fewer states reduced", p.Variant, full.Verdict, full.States, red.Reduced, red.States)
		}
	}
	sys, _ := NewRaynal(model.Params{N: 3, IDs: []int{3, 2, 1}, Variant: "raynal-literal"})
	if pr := spectest.FailsReduced(t, sys, "election-complete"); !pr.Trace.Deadlock {
		t.Fatal("raynal-literal under reduction: election-complete fails, but not in a deadlock")
	}
}
