package checker

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/lelann"
)

// What partial-order reduction promises, checked state by state rather than
// verdict by verdict: a reduced run stores, for every reachable state, one
// that agrees with it on every variable the properties read (so every
// invariant and witness over those variables keeps its verdict), and it
// stores every reachable terminal state.
func TestReductionKeepsWhatThePropertiesRead(t *testing.T) {
	for _, ids := range [][]int{{3, 1, 4, 2}, {1, 2, 3, 4}, {4, 3, 2, 1}, {2, 5, 1, 4, 3}, ring.DescendingIDs(5)} {
		for _, p := range []model.Params{
			{}, {Chan: model.Bag}, {Cap: 1}, {Claims: true}, {Initiators: []int{0}}, {Chan: model.Bag, Initiators: []int{1}},
		} {
			p.N, p.IDs = len(ids), ids
			cr, err := changroberts.New(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameObservations(cr); err != nil {
				t.Fatalf("changroberts %s: %v", p.String(), err)
			}
			ll, err := lelann.New(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameObservations(ll); err != nil {
				t.Fatalf("lelann %s: %v", p.String(), err)
			}
		}
	}
	for _, p := range []model.Params{
		{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}},
		{N: 5, IDs: []int{2, 5, 1, 4, 3}, Variant: "raynal-literal"},
	} {
		sys, _ := changroberts.New(p)
		if err := sameObservations(sys); err != nil {
			t.Fatalf("changroberts %s: %v", p.String(), err)
		}
	}
}

// sameObservations compares a full exploration of sys with a reduced run:
// the sets of values of the properties' variables, and the terminal states.
func sameObservations[S any](sys *model.System[S]) error {
	ctx := context.Background()
	var mu sync.Mutex
	amples := map[uint32][]model.Action{}
	res, e := run(ctx, sys, Options{Workers: 2, Reduce: true, Safety: true}, func(id uint32, a []model.Action) {
		mu.Lock()
		amples[id] = a
		mu.Unlock()
	})
	if res.Err != nil || !res.Reduced || res.Verdict == Incomplete {
		return fmt.Errorf("reduced run: %v, reduced %v, %s", res.Err, res.Reduced, res.Verdict)
	}
	reads := por.Reads(sys)
	observe := func(states []S) (seen, terminal map[string]bool) {
		seen, terminal = map[string]bool{}, map[string]bool{}
		for i := range states {
			var buf []byte
			for _, f := range reads {
				buf = f(buf, &states[i])
			}
			seen[string(buf)] = true
			if isTerminal(sys, &states[i]) {
				terminal[string(sys.Encode(nil, &states[i]))] = true
			}
		}
		return seen, terminal
	}
	all, err := allStates(ctx, sys)
	if err != nil {
		return err
	}
	var stored []S
	for id := 0; id < e.log.len(); id++ {
		init, actions, err := e.path(uint32(id), res.Depth)
		if err != nil {
			return err
		}
		s, err := Replay(sys, init, actions)
		if err != nil {
			return err
		}
		stored = append(stored, s)
	}
	for id, ample := range amples {
		if err := persistent(sys, &stored[id], ample, reads); err != nil {
			return fmt.Errorf("the ample set of %v in %v: %v", ample, sys.Vars(&stored[id]), err)
		}
	}
	fullSeen, fullTerm := observe(all)
	redSeen, redTerm := observe(stored)
	for k := range fullSeen {
		if !redSeen[k] {
			return fmt.Errorf("reachable values %x of the properties' variables are in no stored state (%d of %d states stored)", k, len(stored), len(all))
		}
	}
	for k := range fullTerm {
		if !redTerm[k] {
			return fmt.Errorf("a reachable terminal state is not stored (%d of %d states stored)", len(stored), len(all))
		}
	}
	return nil
}

func isTerminal[S any](sys *model.System[S], s *S) bool {
	var t S
	for ri := range sys.Rules {
		for p := 0; p < sys.Procs; p++ {
			for k := 0; k < sys.Rules[ri].ChoicesAt(s, p); k++ {
				if sys.Apply(s, model.Action{Rule: ri, Proc: p, Choice: k}, &t) {
					return false
				}
			}
		}
	}
	return true
}

// actionKey tells actions apart across states by rule, process and label
// (the label names the message a receive takes, not its choice index).
type actionKey struct {
	rule, proc int
	label      string
}

// step is one enabled action in a state and where it leads.
type step[S any] struct {
	key  actionKey
	next S
}

func steps[S any](sys *model.System[S], s *S) map[actionKey]step[S] {
	out := map[actionKey]step[S]{}
	for ri := range sys.Rules {
		for p := 0; p < sys.Procs; p++ {
			for k := 0; k < sys.Rules[ri].ChoicesAt(s, p); k++ {
				a := model.Action{Rule: ri, Proc: p, Choice: k}
				var t S
				if sys.Apply(s, a, &t) {
					key := actionKey{ri, p, sys.Label(s, a)}
					out[key] = step[S]{key, t}
				}
			}
		}
	}
	return out
}

// persistent checks by brute force that ample, chosen in s, is persistent
// (C1: every action on a path from s that avoids it commutes with each of
// its actions and disables none) and invisible (C2).
func persistent[S any](sys *model.System[S], s *S, ample []model.Action, reads []func([]byte, *S) []byte) error {
	observe := func(s *S) string {
		var buf []byte
		for _, f := range reads {
			buf = f(buf, s)
		}
		return string(buf)
	}
	in := map[actionKey]bool{}
	for _, a := range ample {
		var t S
		if !sys.Apply(s, a, &t) {
			return fmt.Errorf("%v is not enabled", a)
		}
		if observe(s) != observe(&t) {
			return fmt.Errorf("%s is visible", sys.Label(s, a))
		}
		in[actionKey{a.Rule, a.Proc, sys.Label(s, a)}] = true
	}
	seen := map[string]bool{string(sys.Encode(nil, s)): true}
	queue := []S{*s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		here := steps(sys, &u)
		for k := range in {
			if _, ok := here[k]; !ok {
				return fmt.Errorf("%s was disabled by actions outside the ample set, in %v", k.label, sys.Vars(&u))
			}
		}
		for k, b := range here {
			if in[k] {
				continue
			}
			afterB := steps(sys, &b.next)
			for ka := range in {
				a := here[ka]
				ab, ok1 := steps(sys, &a.next)[k]
				ba, ok2 := afterB[ka]
				if !ok1 || !ok2 || string(sys.Encode(nil, &ab.next)) != string(sys.Encode(nil, &ba.next)) {
					return fmt.Errorf("%s, outside the ample set, does not commute with %s in %v", k.label, ka.label, sys.Vars(&u))
				}
			}
			if enc := string(sys.Encode(nil, &b.next)); !seen[enc] {
				seen[enc] = true
				queue = append(queue, b.next)
			}
		}
	}
	return nil
}

// porToy is the state of the small systems below: bytes named by their tests.
type porToy [3]byte

func porToySystem(rules []model.Rule[porToy], props []model.Property[porToy], chans []model.ChanSemantics, init porToy) *model.System[porToy] {
	return &model.System[porToy]{
		Spec: "porToy", Procs: 2, Init: []porToy{init}, Rules: rules, Props: props, Chans: chans, Ends: model.EveryEnd[porToy],
		Copy:   func(dst, src *porToy) { *dst = *src },
		Encode: func(buf []byte, s *porToy) []byte { return append(buf, s[:]...) },
		Decode: func(data []byte, s *porToy) error { copy(s[:], data); return nil },
		Vars:   func(s *porToy) []model.Var { return []model.Var{{Name: "s", Value: fmt.Sprint(*s)}} },
	}
}

// onlyAt restricts a guard to one process.
func onlyAt(p int, f func(s *porToy) bool) func(*porToy, int) bool {
	return func(s *porToy, q int) bool { return q == p && f(s) }
}

func local(p int) model.Footprint { return model.Footprint{Proc: p} }

// The cycle proviso at work: process 0 toggles x (s[0]) for ever, which no
// property reads; process 1 sets y (s[1]) once, which the invariant reads.
// Toggling is persistent and invisible, so without C3 the reduced graph
// would be the cycle x=0 ⇄ x=1 and y would never be set. With C3 the state
// x=1, whose only ample successor x=0 was stored before it, is expanded in
// full and the violation is found.
func TestCycleProvisoFindsTheIgnoredAction(t *testing.T) {
	sys := porToySystem([]model.Rule[porToy]{
		{Name: "toggle", Guard: onlyAt(0, func(*porToy) bool { return true }), Do: func(s *porToy, _, _ int) bool { s[0] ^= 1; return true },
			Footprint: local},
		{Name: "set", Guard: onlyAt(1, func(s *porToy) bool { return s[1] == 0 }), Do: func(s *porToy, _, _ int) bool { s[1] = 1; return true },
			Footprint: local},
	}, []model.Property[porToy]{
		model.InvariantProp("y-unset", "test", "y stays 0", func(s *porToy) bool { return s[1] == 0 }).
			Reading(func(buf []byte, s *porToy) []byte { return append(buf, s[1]) }),
	}, nil, porToy{})
	r := Run(context.Background(), sys, Options{Workers: 1, Reduce: true, Safety: true})
	if !r.Reduced || r.Verdict != Fail || r.Failure().Name != "y-unset" {
		t.Fatalf("reduced %v, verdict %s", r.Reduced, r.Verdict)
	}
}

// A blocked send joins its channel's receivers (rule (c) of C1): process 0
// may either send on a full channel of capacity 1, setting a (s[0]) to 1,
// or give up, setting it to 2; process 1 receives, counting in b (s[2]).
// Giving up alone would look persistent, and the terminal state in which
// process 0 sent after process 1 made room would be lost.
func TestBlockedSendJoinsItsReceivers(t *testing.T) {
	sys := blockedSend()
	full := Run(context.Background(), sys, Options{Workers: 1})
	red := Run(context.Background(), sys, Options{Workers: 1, Reduce: true, Safety: true})
	if !red.Reduced || full.Verdict != Fail || red.Verdict != Fail || red.Terminal != full.Terminal {
		t.Fatalf("full %s with %d terminal states, reduced (%v) %s with %d", full.Verdict, full.Terminal, red.Reduced, red.Verdict, red.Terminal)
	}
}

// blockedSend is the system of TestBlockedSendJoinsItsReceivers.
func blockedSend() *model.System[porToy] {
	const c = 1 // s[1]: messages in channel 0
	send := func(p int) model.Footprint {
		if p != 0 {
			return local(p) // the rule is never enabled there
		}
		return model.Footprint{Proc: p, Send: []int{0}}
	}
	recv := func(p int) model.Footprint {
		if p != 1 {
			return local(p)
		}
		return model.Footprint{Proc: p, Recv: []int{0}}
	}
	return porToySystem([]model.Rule[porToy]{
		{Name: "send", Guard: onlyAt(0, func(s *porToy) bool { return s[0] == 0 }), Footprint: send,
			Do: func(s *porToy, _, _ int) bool {
				if s[c] == 1 {
					return false
				}
				s[c], s[0] = 1, 1
				return true
			}},
		{Name: "give-up", Guard: onlyAt(0, func(s *porToy) bool { return s[0] == 0 }), Footprint: local,
			Do: func(s *porToy, _, _ int) bool { s[0] = 2; return true }},
		{Name: "recv", Guard: onlyAt(1, func(s *porToy) bool { return s[c] > 0 }), Footprint: recv,
			Do: func(s *porToy, _, _ int) bool { s[c], s[2] = 0, s[2]+1; return true }},
	}, []model.Property[porToy]{
		model.EndProp("never-sent", "test", "process 0 ends without sending", func(s *porToy) bool { return s[0] != 1 }),
	}, []model.ChanSemantics{{Kind: model.FIFO, Cap: 1}}, porToy{0, 1, 0})
}

// Visibility is about variables, not truth values (C2 in the package doc):
// with the invariant ¬(x=1 ∧ y=0), setting y first changes no truth value
// in x=y=0, yet taking it alone would hide the violating state x=1, y=0.
func TestVisibilityIsAboutVariablesNotTruth(t *testing.T) {
	set := func(v int) func(s *porToy, _, _ int) bool {
		return func(s *porToy, _, _ int) bool { s[v] = 1; return true }
	}
	sys := porToySystem([]model.Rule[porToy]{
		{Name: "set-x", Guard: onlyAt(0, func(s *porToy) bool { return s[0] == 0 }), Do: set(0), Footprint: local},
		{Name: "set-y", Guard: onlyAt(1, func(s *porToy) bool { return s[1] == 0 }), Do: set(1), Footprint: local},
	}, []model.Property[porToy]{
		model.InvariantProp("not-x-alone", "test", "¬(x=1 ∧ y=0)", func(s *porToy) bool { return !(s[0] == 1 && s[1] == 0) }).
			Reading(func(buf []byte, s *porToy) []byte { return append(buf, s[0], s[1]) }),
	}, nil, porToy{})
	if r := Run(context.Background(), sys, Options{Workers: 1, Reduce: true, Safety: true}); r.Verdict != Fail {
		t.Fatalf("verdict %s, want fail", r.Verdict)
	}
}

// Every action of a reduced ample set must be invisible, not only the one
// it starts from. Process 0 may either stay quiet (invisible) or set x;
// process 1 sets y; the step property forbids changing x once y is set. An
// ample set {quiet, set-x} would leave the order set-y, set-x unexplored.
func TestEveryAmpleActionIsInvisible(t *testing.T) {
	sys := porToySystem([]model.Rule[porToy]{
		{Name: "quiet", Guard: onlyAt(0, func(s *porToy) bool { return s[2] == 0 && s[0] == 0 }), Footprint: local,
			Do: func(s *porToy, _, _ int) bool { s[2] = 1; return true }},
		{Name: "set-x", Guard: onlyAt(0, func(s *porToy) bool { return s[2] == 0 && s[0] == 0 }), Footprint: local,
			Do: func(s *porToy, _, _ int) bool { s[0] = 1; return true }},
		{Name: "set-y", Guard: onlyAt(1, func(s *porToy) bool { return s[1] == 0 }), Footprint: local,
			Do: func(s *porToy, _, _ int) bool { s[1] = 1; return true }},
	}, []model.Property[porToy]{
		model.StepProp("x-frozen-after-y", "test", "once y is set, x does not change",
			func(b *porToy, _ model.Action, a *porToy) bool { return b[1] == 0 || a[0] == b[0] }).
			Reading(func(buf []byte, s *porToy) []byte { return append(buf, s[0], s[1]) }),
	}, nil, porToy{})
	if r := Run(context.Background(), sys, Options{Workers: 1, Reduce: true, Safety: true}); r.Verdict != Fail {
		t.Fatalf("verdict %s, want fail", r.Verdict)
	}
}

// allStates returns every reachable state of sys, breadth-first, telling
// states apart by their full encodings, as the reference checker does.
func allStates[S any](ctx context.Context, sys *model.System[S]) ([]S, error) {
	seen := map[string]bool{}
	var out []S
	add := func(s *S) {
		if enc := string(sys.Encode(nil, s)); !seen[enc] {
			seen[enc] = true
			var c S
			sys.Copy(&c, s)
			out = append(out, c)
		}
	}
	for i := range sys.Init {
		add(&sys.Init[i])
	}
	for i := 0; i < len(out); i++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for ri := range sys.Rules {
			for p := 0; p < sys.Procs; p++ {
				for k := 0; k < sys.Rules[ri].ChoicesAt(&out[i], p); k++ {
					var t S
					if sys.Apply(&out[i], model.Action{Rule: ri, Proc: p, Choice: k}, &t) {
						add(&t)
					}
				}
			}
		}
	}
	return out, nil
}

// Liveness under reduction needs its propositions visible (C2 in package
// por's doc, "Liveness"). Process 0 sets x, process 1 sets y, and
// "eventually x=1 ∧ y=0" fails on the run that sets y first. Declared
// honestly, the property's reads make both actions visible and the reduced
// run finds the failure, as the full one does. A reduction that ignored
// them (here, a Reads that reads nothing) would take set-x alone first,
// every reduced run would pass through x=1 ∧ y=0, and the verdict would be
// pass: the comparison with the full run catches that.
func TestLivenessNeedsItsPropositionsVisible(t *testing.T) {
	build := func(reads func([]byte, *porToy) []byte) *model.System[porToy] {
		set := func(v int) func(s *porToy, _, _ int) bool {
			return func(s *porToy, _, _ int) bool { s[v] = 1; return true }
		}
		sys := porToySystem([]model.Rule[porToy]{
			{Name: "set-x", Guard: onlyAt(0, func(s *porToy) bool { return s[0] == 0 }), Do: set(0), Footprint: local},
			{Name: "set-y", Guard: onlyAt(1, func(s *porToy) bool { return s[1] == 0 }), Do: set(1), Footprint: local},
		}, []model.Property[porToy]{
			model.EventuallyProp("x-alone", "test", "eventually x=1 ∧ y=0", func(s *porToy) bool { return s[0] == 1 && s[1] == 0 }).Reading(reads),
		}, nil, porToy{})
		sys.Termination = &model.Termination[porToy]{Doc: "unset variables", Value: func(buf []int, s *porToy) []int {
			return append(buf, 2-int(s[0])-int(s[1]))
		}}
		return sys
	}
	honest := build(func(buf []byte, s *porToy) []byte { return append(buf, s[0], s[1]) })
	full := Run(context.Background(), honest, Options{Workers: 1})
	red := Run(context.Background(), honest, Options{Workers: 1, Reduce: true})
	if full.Verdict != Fail || red.Verdict != Fail || !red.Reduced || red.Liveness.Method != ByMeasureReduced {
		t.Fatalf("full %s, reduced (%v) %s by %+v", full.Verdict, red.Reduced, red.Verdict, red.Liveness)
	}
	blind := build(func(buf []byte, _ *porToy) []byte { return buf })
	if r := Run(context.Background(), blind, Options{Workers: 1, Reduce: true}); r.Verdict != Pass || r.States >= full.States {
		t.Fatalf("with the property's variables hidden the reduced run should wrongly pass, storing fewer states: %s, %d of %d states", r.Verdict, r.States, full.States)
	}
}

// Re-expanding a state whose marks were raised late, under reduction,
// passes them on to its stored successors only. Process 1 walks y along
// 0 → 1 → 4 → 2 → 3 or 0 → 2 → 3 (visible: "y = 1 leads to y = 9" reads
// y) and may send one message while y ≠ 3, which process 0 receives
// (invisible). y = 2 with nothing sent is first reached unmarked, then,
// two levels later, from y = 4 with y = 1 behind it: it is re-expanded,
// and so is its successor by the send, whose ample set was the receive:
// its successor by y := 3 was never stored, and the marks must not go
// there. The property fails (y = 3 ends the run), as in the full run.
func TestReexpansionUnderReductionSkipsUnstoredStates(t *testing.T) {
	const y, sent, queued = 0, 1, 2
	step := func(from, to byte) model.Rule[porToy] {
		return model.Rule[porToy]{Name: fmt.Sprintf("y%d-%d", from, to), Guard: onlyAt(1, func(s *porToy) bool { return s[y] == from }),
			Do: func(s *porToy, _, _ int) bool { s[y] = to; return true }, Footprint: local}
	}
	remaining := map[byte]int{0: 4, 1: 3, 4: 2, 2: 1, 3: 0}
	sys := porToySystem([]model.Rule[porToy]{
		step(0, 1), step(1, 4), step(4, 2), step(0, 2), step(2, 3),
		{Name: "send", Guard: onlyAt(1, func(s *porToy) bool { return s[sent] == 0 && s[y] != 3 }),
			Do:        func(s *porToy, _, _ int) bool { s[sent], s[queued] = 1, 1; return true },
			Footprint: onChannel(1, model.Footprint{Proc: 1, Send: []int{0}})},
		{Name: "recv", Guard: onlyAt(0, func(s *porToy) bool { return s[queued] > 0 }),
			Do:        func(s *porToy, _, _ int) bool { s[queued] = 0; return true },
			Footprint: onChannel(0, model.Footprint{Proc: 0, Recv: []int{0}})},
	}, []model.Property[porToy]{
		model.LeadsToProp("one-leads-to-nine", "test", "y = 1 leads to y = 9", func(s *porToy) bool { return s[y] == 1 }, func(s *porToy) bool { return s[y] == 9 }).
			Reading(func(buf []byte, s *porToy) []byte { return append(buf, s[y]) }),
	}, []model.ChanSemantics{{Kind: model.FIFO}}, porToy{})
	sys.Termination = &model.Termination[porToy]{Doc: "steps left", Value: func(buf []int, s *porToy) []int {
		return append(buf, remaining[s[y]]+2*(1-int(s[sent]))+int(s[queued]))
	}}
	if err := por.CheckFootprints(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	full := Run(context.Background(), sys, Options{Workers: 1})
	red := Run(context.Background(), sys, Options{Workers: 1, Reduce: true})
	if full.Verdict != Fail || red.Verdict != Fail || !red.Reduced || red.States >= full.States || red.Liveness.Method != ByMeasureReduced {
		t.Fatalf("full %s (%d states), reduced %s (%d states) by %+v", full.Verdict, full.States, red.Verdict, red.States, red.Liveness)
	}
}

// onChannel is the footprint f at process p, where the rule is enabled,
// and a local one elsewhere.
func onChannel(p int, f model.Footprint) func(int) model.Footprint {
	return func(q int) model.Footprint {
		if q != p {
			return local(q)
		}
		return f
	}
}
