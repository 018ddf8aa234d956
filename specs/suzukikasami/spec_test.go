package suzukikasami

import (
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func params(n, bound int) model.Params {
	return model.Params{N: n, IDs: ring.DescendingIDs(n), Chan: model.Bag, Bound: bound}
}

// The state counts pinned in testdata/counts.tsv, all properties passing:
// with bag channels (the seed's network) and on FIFO channels, and the
// recurring variant's. With bag channels every run is finite: the graph
// has no cycle, so fairness plays no part and every fairness gives the
// same verdicts. The recurring variant (users ask again after leaving, for
// ever) on FIFO channels under weak fairness per action class passes over
// infinite fair runs: its state graph has cycles.
func TestStateCountsAndVerdicts(t *testing.T) {
	rows := spectest.CountRows(t)
	for i, r := range spectest.CheckCounts(t, New, rows) {
		switch row := rows[i]; {
		case row.Params.Chan == model.Bag && r.Liveness.Cycles != 0:
			t.Errorf("%s: %d cycles; every run should be finite", row, r.Liveness.Cycles)
		case row.Params.Variant == "recurring" && r.Liveness.Cycles == 0:
			t.Errorf("%s: no cycle; the recurring variant should run for ever", row)
		}
	}
	for _, f := range []model.Fairness{model.FairNone, model.FairAction} {
		if r := spectest.Run(t, spectest.Build(t, New, params(3, 2)), checker.Options{Fair: f}); r.Verdict != checker.Pass {
			t.Fatalf("fairness %s: %s", f, r.Verdict)
		}
	}
}

// An entry costs n messages (n-1 requests and the token) or none when the
// token is present, and both cases occur. Reference: 002 §3.6.
func TestClaimEntryCostsNOrZeroMessages(t *testing.T) {
	p := params(3, 2)
	p.Claims = true
	r := spectest.Run(t, spectest.Build(t, New, p), checker.Options{Fair: model.FairProcess})
	if spectest.Prop(t, &r, "entry-cost").Verdict != checker.Pass {
		t.Fatal("entry-cost fails")
	}
	// Witnesses of both costs: a first entry of p1 (n messages) and an
	// entry of p0 with the token present (0 messages).
	var remote, present bool
	for _, s := range spectest.Prop(t, &r, "can-enter-p1").Trace.Steps {
		remote = remote || strings.HasPrefix(s.Label, "recv p1 ⟨token")
	}
	for _, s := range spectest.Prop(t, &r, "can-enter-p0").Trace.Steps {
		present = present || strings.HasPrefix(s.Label, "ask p0 (token present")
	}
	if !remote || !present {
		t.Fatalf("witnesses do not show both kinds of entry: remote %v, present %v", remote, present)
	}
}

// Ghosts never influence behaviour. Reference: model/ghost.go.
func TestGhostErasure(t *testing.T) {
	spectest.Erasure(t, New, params(2, 2), params(3, 1))
}

// A mutant that sends the token but keeps token_present = T breaks the
// seed's exclusion argument at once. Reference: 002 §3.5.
func TestKeepingTokenPresentBreaksExclusion(t *testing.T) {
	sys := spectest.Build(t, New, params(3, 1))
	for ri := range sys.Rules {
		do := sys.Rules[ri].Do
		sys.Rules[ri].Do = func(s *State, i, k int) bool {
			had := s.Present[i]
			ok := do(s, i, k)
			s.Present[i] = s.Present[i] || had
			return ok
		}
	}
	r := spectest.Run(t, sys, checker.Options{Fair: model.FairProcess})
	for _, name := range []string{"at-most-one-token-present", "mutual-exclusion"} {
		if p := spectest.Prop(t, &r, name); p.Verdict != checker.Fail || p.Trace == nil {
			t.Errorf("%s: %s", name, p.Verdict)
		}
	}
}

// Without the seed's max, a request delivered out of order overwrites a
// later one, which is then never served: the run ends with a process
// waiting forever, a finite counterexample to request-granted. With FIFO
// channels the order cannot be inverted and the mutant passes. Reference:
// 002 §3.6 ("only the last request from P_j being considered if several
// had been delivered out of sequence").
func TestWithoutMaxAReorderedRequestIsLost(t *testing.T) {
	mutate := func(sys *model.System[State]) {
		recv := sys.Rules[1].Do
		link := sys.Params.ChanSemantics()
		sys.Rules[1].Do = func(s *State, i, k int) bool {
			if m := s.In[i].Peek(link, k); m.Kind == Request {
				s.Reqs[i][m.From] = 0 // so that max(requests(j), k) = k
			}
			return recv(s, i, k)
		}
	}
	bag := spectest.Build(t, New, params(3, 2))
	mutate(bag)
	r := spectest.Run(t, bag, checker.Options{Fair: model.FairProcess})
	f := r.Failure()
	if r.Verdict != checker.Fail || f == nil || !strings.HasPrefix(f.Name, "request-granted-") || !f.Trace.Deadlock || f.Trace.LoopStart != nil {
		t.Fatalf("bag: %s, failure %+v", r.Verdict, f)
	}
	fifo := params(3, 2)
	fifo.Chan = model.FIFO
	sys := spectest.Build(t, New, fifo)
	mutate(sys)
	if r := spectest.Run(t, sys, checker.Options{Fair: model.FairProcess}); r.Verdict != checker.Pass {
		t.Fatalf("fifo: %s, failure %+v", r.Verdict, r.Failure())
	}
}

func TestParametersItDoesNotHaveAreRefused(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{3, 2, 1}, Initiators: []int{0}},
		{N: 9, IDs: ring.DescendingIDs(9)},
		{N: 3, IDs: []int{3, 2, 1}, Bound: 256},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// The footprints and the properties' reads tell the truth
// (por.CheckFootprints), and reduction keeps every safety verdict but
// stores every state: on a fully connected network each process receives
// from every other, so its actions wait for everyone's.
func TestReduction(t *testing.T) {
	for _, p := range []model.Params{{N: 3, Chan: model.Bag}, {N: 3, Claims: true}, {N: 3, Chan: model.Bag, Bound: 2}, {N: 2, Chan: model.Bag, Claims: true}} {
		p.IDs = ring.DescendingIDs(p.N)
		spectest.Footprints(t, New, p)
		full, red := spectest.SameVerdicts(t, checker.Of(spectest.Build(t, New, p)), "suzukikasami")
		if !red.Reduced || red.States != full.States {
			t.Errorf("%s: reduced %v, %d states; full %d", p.String(), red.Reduced, red.States, full.States)
		}
	}
}

// The recurring variant takes no bound: its users ask for ever.
func TestRecurringTakesNoBound(t *testing.T) {
	if _, err := New(model.Params{N: 2, IDs: []int{2, 1}, Variant: "recurring", Bound: 2}); err == nil {
		t.Error("the recurring variant took --bound")
	}
}

// handOffFromZero replaces exit by a postlude that scans for a requester
// from process 0, not from the next process round the ring.
func handOffFromZero(sys *model.System[State]) {
	p := sys.Params
	sp := &spec{n: p.N, sem: p.ChanSemantics(), recurring: p.Variant == "recurring"}
	spectest.ReplaceDo(sys, "exit", func(s *State, i, _ int) bool {
		s.Phase[i] = invariants.Idle
		s.Token[i][i] = s.Clock[i]
		for j := 0; j < sp.n; j++ {
			if j != i && sp.owed(s, i, j) {
				m := Msg{Kind: Access, N: uint8(sp.n)}
				for k, v := range s.Token[i] {
					m.Token[k], s.Token[i][k] = uint8(v), 0
				}
				s.Present[i] = false
				return s.In[j].Send(sp.sem, m)
			}
		}
		return true
	})
}

// A hand-off that always scans from process 0, not from the next process
// round the ring, starves the highest-numbered one: with requests that
// recur, request-granted fails for it with a lasso (002 §3.5's fairness).
func TestHandOffFromZeroStarves(t *testing.T) {
	p := model.Params{N: 3, IDs: ring.DescendingIDs(3), Chan: model.FIFO, Variant: "recurring"}
	sys := spectest.Build(t, New, p)
	handOffFromZero(sys)
	r := spectest.Run(t, sys, checker.Options{Fair: model.FairAction, Continue: true})
	pr := spectest.Prop(t, &r, "request-granted-p2")
	if pr.Verdict != checker.Fail || pr.Trace == nil || pr.Trace.LoopStart == nil {
		t.Fatalf("request-granted-p2: %s, want a lasso", pr.Verdict)
	}
	for _, q := range []string{"request-granted-p0", "mutual-exclusion"} {
		if v := spectest.Prop(t, &r, q).Verdict; v != checker.Pass {
			t.Errorf("%s: %s, want pass (only p2 starves)", q, v)
		}
	}
}
