package spectest

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// Situation is what a claim speaks of (issue 35, "every claim bites on a
// pinned configuration"): an implication's antecedent, a step property's
// precondition, a bound's measured quantity above zero, the terminal state
// an end property judges. A claim whose situation never arises in a run
// passes vacuously there: it was never put to the test. Exactly one of
// State, End and Step is set.
type Situation[S any] struct {
	// Claim names the property the situation puts to the test.
	Claim string
	// State holds in a reachable state in which the claim is tested.
	State func(s *S) bool
	// End holds in a terminal state in which the claim is tested.
	End func(s *S) bool
	// Step holds on a step that tests the claim.
	Step func(before *S, a model.Action, after *S) bool
}

// Arose is how often each situation arose in a full exploration: the
// distinct states (State), terminal states (End) or transitions (Step) in
// which it held.
type Arose struct {
	Claim string
	Count int
}

// sighting collects the distinct states or transitions in which one
// situation held, by a 64-bit hash of their canonical encoding (a
// collision could only lower a count). The checker's workers evaluate
// properties in parallel, and may evaluate one state more than once; the
// set keeps each once.
type sighting struct {
	seed maphash.Seed
	mu   sync.Mutex
	seen map[uint64]struct{}
}

func (w *sighting) add(key []byte) {
	h := maphash.Bytes(w.seed, key)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[h] = struct{}{}
}

// observer is a property of the kind that sees what sit speaks of, which
// always holds and records in w where sit's situation held.
func observer[S any](sys *model.System[S], sit Situation[S], w *sighting) model.Property[S] {
	name := "situation-of-" + sit.Claim
	switch {
	case sit.State != nil:
		return model.InvariantProp(name, "test", "", func(s *S) bool {
			if sit.State(s) {
				w.add(sys.Encode(nil, s))
			}
			return true
		})
	case sit.End != nil:
		return model.EndProp(name, "test", "", func(s *S) bool {
			if sit.End(s) {
				w.add(sys.Encode(nil, s))
			}
			return true
		})
	default:
		return model.StepProp(name, "test", "", func(b *S, a model.Action, after *S) bool {
			if sit.Step(b, a, after) {
				w.add(fmt.Appendf(sys.Encode(nil, b), "|%d,%d,%d", a.Rule, a.Proc, a.Choice))
			}
			return true
		})
	}
}

// Exercised explores sys fully (it must be small enough for a test) with
// an observer for each situation, and fails the test unless every claim
// passes and its situation arose in at least one state, terminal state or
// transition: a pass there is not vacuous. It returns the run's result and
// how often each situation arose, in sits' order.
func Exercised[S any](t testing.TB, sys *model.System[S], sits ...Situation[S]) (checker.Result, []Arose) {
	t.Helper()
	ws := make([]*sighting, len(sits))
	for i, sit := range sits {
		ws[i] = &sighting{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
		sys.Props = append(sys.Props, observer(sys, sit, ws[i]))
	}
	r := Run(t, sys, checker.Options{})
	if r.Reason != "" {
		t.Fatalf("%s %s: the exploration stopped: %s", sys.Spec, sys.Params.String(), r.Reason)
	}
	out := make([]Arose, len(sits))
	for i, sit := range sits {
		out[i] = Arose{sit.Claim, len(ws[i].seen)}
		if v := Prop(t, &r, sit.Claim).Verdict; v != checker.Pass {
			t.Errorf("%s %s: claim %s is %s", sys.Spec, sys.Params.String(), sit.Claim, v)
		}
		if out[i].Count == 0 {
			t.Errorf("%s %s: claim %s passes vacuously: its situation never arose in %d states", sys.Spec, sys.Params.String(), sit.Claim, r.States)
		}
	}
	return r, out
}

// Pinned is a configuration and the claims it puts to the test: their
// situations arise there.
type Pinned struct {
	Params model.Params
	Claims []string
	// Long configurations are explored only without -short.
	Long bool
}

// PinnedClaims explores each configuration (built with claims on) with
// the situations of the claims it names, sits by claim name, and fails
// the test unless each of those claims passes with its situation arising
// (Exercised), and unless every claim that --claims adds to a variant's
// systems is pinned to some configuration of that variant. A claim named
// for a configuration whose system does not have it (another variant's)
// is left out there.
func PinnedClaims[S any](t *testing.T, build func(model.Params) (*model.System[S], error), sits map[string]Situation[S], pins ...Pinned) {
	t.Helper()
	offered, pinned := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, pin := range pins {
		p := pin.Params
		p.Claims = true
		sys := Build(t, build, p)
		v := sys.Variant
		if offered[v] == nil {
			offered[v], pinned[v] = map[string]bool{}, map[string]bool{}
		}
		names := ClaimNames(t, build, p)
		for _, name := range names {
			offered[v][name] = true
		}
		var chosen []Situation[S]
		for _, name := range pin.Claims {
			sit, ok := sits[name]
			if !ok {
				t.Fatalf("no situation for claim %s", name)
			}
			if !slices.Contains(names, name) {
				continue // a claim of another variant or configuration
			}
			sit.Claim = name
			chosen = append(chosen, sit)
			pinned[v][name] = true
		}
		if pin.Long && testing.Short() {
			continue
		}
		r, arose := Exercised(t, sys, chosen...)
		t.Logf("%s %s: %d states; situations arose in %v", v, p.String(), r.States, arose)
	}
	for v, names := range offered {
		for name := range names {
			if !pinned[v][name] {
				t.Errorf("variant %s: claim %s is pinned to no configuration", v, name)
			}
		}
	}
}

// ClaimNames names the properties --claims adds to the system for p.
func ClaimNames[S any](t testing.TB, build func(model.Params) (*model.System[S], error), p model.Params) []string {
	t.Helper()
	p.Claims = false
	plain := Build(t, build, p)
	p.Claims = true
	ghosted := Build(t, build, p)
	had := map[string]bool{}
	for _, pr := range plain.Props {
		had[pr.Name] = true
	}
	var out []string
	for _, pr := range ghosted.Props {
		if !had[pr.Name] {
			out = append(out, pr.Name)
		}
	}
	return out
}
