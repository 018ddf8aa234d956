package misra

import (
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

func params(n int, variant string) model.Params {
	return model.Params{N: n, IDs: ring.DescendingIDs(n), Variant: variant}
}

var action = checker.Options{Fair: model.FairAction}

// The signed reading keeps every claim under weak fairness per action
// class, with claims on, with the state counts pinned in
// testdata/counts.tsv. The regeneration's liveness is not vacuous: a token
// is lost in some run (the witness). Reference: 002 §4.2.
func TestSignedPasses(t *testing.T) {
	spectest.PinnedCounts(t, New, model.WitnessProp("a-token-is-lost", "test", "",
		func(s *State) bool { return count(s, Ping) == 0 || count(s, Pong) == 0 }))
}

// loss-detected-in-one-passage (002 §4.2) is tight: in some run the
// surviving token is received n times after the loss without regenerating
// the other, which it does only at its (n+1)-th receipt; none needs more.
// A bound of n receipts fails (n = 2, 3), so the seed's "one passage round
// the ring" is read as n + 1 receipts: once round, and on to the next.
func TestLossDetectedInOnePassageIsTight(t *testing.T) {
	for n := 2; n <= 3; n++ {
		p := params(n, "")
		p.Claims = true
		sys := spectest.Build(t, New, p)
		sys.Props = append(sys.Props, model.WitnessProp("n-receipts-without-regeneration", "test", "",
			func(s *State) bool { return s.Ghost.Passage == n }))
		r := spectest.Run(t, sys, checker.Options{})
		if v := spectest.Prop(t, &r, "loss-detected-in-one-passage").Verdict; v != checker.Pass {
			t.Errorf("n=%d: loss-detected-in-one-passage %s", n, v)
		}
		if v := spectest.Prop(t, &r, "n-receipts-without-regeneration").Verdict; v != checker.Pass {
			t.Errorf("n=%d: no run receives the survivor n times without regenerating (%s)", n, v)
		}
	}
}

// Fairness decides request-granted, and only it: the regeneration of a
// lost token needs none, since a lone token's moves are forced.
func TestFairness(t *testing.T) {
	sys := spectest.Build(t, New, params(2, ""))
	for _, f := range []model.Fairness{model.FairNone, model.FairProcess, model.FairAction} {
		r := spectest.Run(t, sys, checker.Options{Fair: f})
		if v := spectest.Prop(t, &r, "lost-token-regenerated").Verdict; v != checker.Pass {
			t.Errorf("fairness %s: lost-token-regenerated %s", f, v)
		}
		if v, want := spectest.Prop(t, &r, "request-granted-p1").Verdict, f != model.FairAction; (v == checker.Fail) != want {
			t.Errorf("fairness %s: request-granted-p1 %s", f, v)
		}
	}
}

// Without fairness a process keeps the token forever: p1 waits while p0
// holds ping and never uses or passes it, and pong goes round and round
// (meeting ping at p0 on every lap). The lasso's loop moves pong only.
func TestWithoutFairnessAProcessKeepsTheTokenForever(t *testing.T) {
	r := spectest.Run(t, spectest.Build(t, New, params(2, "")), checker.Options{Fair: model.FairNone})
	p := spectest.Prop(t, &r, "request-granted-p1")
	tr := p.Trace
	if p.Verdict != checker.Fail || tr.LoopStart == nil || tr.From == nil {
		t.Fatalf("request-granted-p1 %s, trace %+v", p.Verdict, tr)
	}
	loop := spectest.StepLabels(tr.Steps[*tr.LoopStart:])
	for _, l := range loop {
		if !strings.Contains(l, "⟨pong") {
			t.Fatalf("loop step %q moves something other than pong: %v", l, loop)
		}
	}
	var holder string
	for _, v := range tr.Start {
		if v.Name == "p0.holds" {
			holder = v.Value
		}
	}
	s, err := checker.Replay(spectest.Build(t, New, params(2, "")), tr.Init, spectest.Actions(tr.Steps[:*tr.LoopStart]))
	if err != nil || !holds(&s, 0, Ping) || s.Phase[1] != 1 {
		t.Fatalf("at the loop p0 should hold ping (initially %s) and p1 wait: %+v (%v)", holder, s, err)
	}
}

// Under weak fairness per process the lasso is the same kind of loop: p0
// keeps taking steps (it receives and passes pong), which satisfies
// per-process fairness, but never passes ping.
func TestPerProcessFairnessIsTooWeak(t *testing.T) {
	r := spectest.Run(t, spectest.Build(t, New, params(3, "")), checker.Options{Fair: model.FairProcess})
	tr := spectest.Prop(t, &r, "request-granted-p0").Trace
	if tr == nil || tr.LoopStart == nil {
		t.Fatalf("no lasso: %+v", tr)
	}
	for _, l := range spectest.StepLabels(tr.Steps[*tr.LoopStart:]) {
		if strings.Contains(l, "pass p0 ⟨ping") || strings.HasPrefix(l, "enter") {
			t.Fatalf("the loop moves ping: %s", l)
		}
	}
}

// The literal reading, every number a residue modulo n+1, confuses a pong
// number with a ping number. Reference: 002 §4.2 ("the negative values
// recognized by P_i").
func TestLiteralResiduesRegenerateAnExistingToken(t *testing.T) {
	r := spectest.Run(t, spectest.Build(t, New, params(2, "literal-residues")), checker.Options{Fair: model.FairAction, MaxStates: 20000})
	p := spectest.Prop(t, &r, "one-token-each")
	want := "pass p0 ⟨ping +1⟩ to p1; recv p1 ⟨ping +1⟩; pass p1 ⟨ping +1⟩ to p0; recv p0 ⟨ping +1⟩ (meets pong); " +
		"pass p0 ⟨pong −2⟩ to p1; recv p1 ⟨pong −2⟩ (m = 1: regenerates ping)"
	if p.Verdict != checker.Fail || strings.Join(spectest.StepLabels(p.Trace.Steps), "; ") != want {
		t.Fatalf("%s, trace %v", p.Verdict, spectest.StepLabels(p.Trace.Steps))
	}
}

// Counting modulo n is not enough: the tokens meet at each of the n
// processes in one round, and the counter comes back to where it was.
// Reference: 002 §4.2 ("it is thus sufficient to increment them modulo
// (n+1)").
func TestCounterModuloNFails(t *testing.T) {
	for _, c := range []struct{ n, steps, meetings int }{{2, 10, 2}, {3, 14, 3}} {
		p := params(c.n, "mod-n")
		p.Claims = true
		r := spectest.Run(t, spectest.Build(t, New, p), checker.Options{Fair: model.FairAction, MaxStates: 60000})
		for _, name := range []string{"one-token-each", "regenerated-only-when-lost"} {
			if v := spectest.Prop(t, &r, name).Verdict; v != checker.Fail {
				t.Fatalf("n=%d: %s %s", c.n, name, v)
			}
		}
		tr := spectest.Prop(t, &r, "one-token-each").Trace
		ls := spectest.StepLabels(tr.Steps)
		meetings := strings.Count(strings.Join(ls, "\n"), "(meets")
		if len(ls) != c.steps || meetings != c.meetings || !strings.Contains(ls[len(ls)-1], "regenerates") {
			t.Fatalf("n=%d: trace of %d steps with %d meetings: %v", c.n, len(ls), meetings, ls)
		}
	}
}

// Over bag channels a token can overtake the other on a link, and the
// detection fails: Misra's algorithm needs FIFO links.
func TestBagChannelsBreakDetection(t *testing.T) {
	p := params(3, "")
	p.Chan = model.Bag
	r := spectest.Run(t, spectest.Build(t, New, p), checker.Options{Fair: model.FairAction, MaxStates: 60000})
	tr := spectest.Prop(t, &r, "one-token-each").Trace
	if tr == nil || len(tr.Steps) != 9 || !strings.Contains(tr.Steps[8].Label, "regenerates pong") {
		t.Fatalf("bag: %+v", tr)
	}
}

// Ghosts never influence behaviour. Reference: model/ghost.go.
func TestGhostErasure(t *testing.T) {
	p := params(2, "")
	p.Bound = 2
	spectest.Erasure(t, New, p)
}

func TestParametersItDoesNotHaveAreRefused(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{3, 2, 1}, Initiators: []int{0}},
		{N: 3, IDs: []int{3, 2, 1}, Variant: "nope"},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}
