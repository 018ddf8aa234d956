package checker

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// jammed is countersSystem(3) with a second rule that jams both counters
// at 9 once x0 is 1 and x1 is 0: a terminal state two steps from the
// start, where the proper end, both counters at 3, is six.
func jammed() *model.System[counters] {
	sys := countersSystem(3)
	sys.Rules = append(sys.Rules, model.Rule[counters]{Name: "jam",
		Guard: func(s *counters, p int) bool { return p == 0 && s.x[0] == 1 && s.x[1] == 0 },
		Do:    func(s *counters, _, _ int) bool { s.x[0], s.x[1] = 9, 9; return true }})
	return sys
}

// A terminal state that the spec does not declare a proper end fails the
// property deadlock, with a shortest run to it: inc p0, then jam.
func TestDeadlockIsATerminalStateNotAProperEnd(t *testing.T) {
	r := Run(context.Background(), jammed(), Options{Workers: 1})
	p := prop(&r, model.Deadlock)
	if r.Verdict != Fail || p.Verdict != Fail || p.Kind != model.End || r.Failure().Name != model.Deadlock {
		t.Fatalf("verdict %s, deadlock %s (%s), failure %s", r.Verdict, p.Verdict, p.Kind, r.Failure().Name)
	}
	tr := p.Trace
	if got := fmt.Sprint(traceLabels(tr)); !tr.Deadlock || tr.Property != model.Deadlock || tr.Kind != "end" || got != "[inc p0 jam p0]" {
		t.Fatalf("trace %s (deadlock %v, property %s %s), want [inc p0 jam p0]", got, tr.Deadlock, tr.Property, tr.Kind)
	}
	if r.Props[len(r.Props)-1].Name != model.Deadlock {
		t.Fatalf("deadlock is not after the spec's properties: %+v", r.Props)
	}
}

// With Ends nil every terminal state is a deadlock, as in TLC: the
// counters' only one, six steps away. Declaring every terminal state
// proper, or --no-deadlock, makes the run pass; with --no-deadlock the
// property is not reported at all, and the run's meaning says so.
func TestDeadlockCheckFollowsEndsAndNoDeadlock(t *testing.T) {
	sys := countersSystem(3)
	sys.Ends = nil
	r := Run(context.Background(), sys, Options{Workers: 1})
	if p := prop(&r, model.Deadlock); r.Verdict != Fail || len(p.Trace.Steps) != 6 || !strings.Contains(p.Doc, "declares no proper end") {
		t.Fatalf("Ends nil: %s, deadlock %+v", r.Verdict, p)
	}
	sys.Ends = model.EveryEnd[counters]
	if r := Run(context.Background(), sys, Options{Workers: 1}); r.Verdict != Pass || prop(&r, model.Deadlock).Verdict != Pass {
		t.Fatalf("every end proper: %s", r.Verdict)
	}
	r = Run(context.Background(), jammed(), Options{Workers: 1, NoDeadlock: true})
	if r.Verdict != Pass || !r.Meaning.NoDeadlock || r.Terminal != 2 {
		t.Fatalf("--no-deadlock: %s, meaning %+v, %d terminal", r.Verdict, r.Meaning, r.Terminal)
	}
	for _, p := range r.Props {
		if p.Name == model.Deadlock {
			t.Fatalf("--no-deadlock reports %+v", p)
		}
	}
}

// Partial-order reduction keeps every terminal state (C0, C1: package por),
// so it finds the same deadlock: the system of TestBlockedSendJoinsItsReceivers,
// whose proper ends are those where process 0 did not send.
func TestDeadlockFoundUnderReduction(t *testing.T) {
	sys := blockedSend()
	sys.Props = nil
	sys.Ends = func(s *porToy) bool { return s[0] != 1 }
	full := Run(context.Background(), sys, Options{Workers: 1})
	red := Run(context.Background(), sys, Options{Workers: 1, Reduce: true})
	if !red.Reduced || full.Verdict != Fail || red.Verdict != Fail || red.Terminal != full.Terminal ||
		prop(&full, model.Deadlock).Verdict != Fail || prop(&red, model.Deadlock).Verdict != Fail {
		t.Fatalf("full %s with %d terminal states, reduced (%v) %s with %d", full.Verdict, full.Terminal, red.Reduced, red.Verdict, red.Terminal)
	}
}

// A spec's own property may not take the name of the deadlock check.
func TestPropertyNamedDeadlockIsRefused(t *testing.T) {
	sys := countersSystem(1, model.InvariantProp(model.Deadlock, "test", "", func(*counters) bool { return true }))
	if r := Run(context.Background(), sys, Options{Workers: 1}); r.Err == nil || !strings.Contains(r.Err.Error(), "rename it") {
		t.Fatalf("err %v", r.Err)
	}
}

func traceLabels(tr *Trace) []string {
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Label)
	}
	return out
}
