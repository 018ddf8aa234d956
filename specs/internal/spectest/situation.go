package spectest

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// Situation is what a claim speaks of (model/vacuity.go): the case in
// which it can fail. With none of State, End and Step set it is the
// situation the claim declares where it is built (model.Property.When);
// a test may give one of them instead, to pin a case of its own (one of
// the two cases of a lemma's proof) or for a claim that declares none.
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

// declared says the situation is the claim's own.
func (sit Situation[S]) declared() bool { return sit.State == nil && sit.End == nil && sit.Step == nil }

// Arose is how often a situation arose in a full exploration: the
// distinct states, terminal states or transitions in which it held (for a
// witness, the states in which the witness held).
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

// observer is a property that always holds and records in w where sit's
// situation held, of the kind that sees it: sit's own predicate, or the
// one its claim pr declares; an error if neither gives one.
func observer[S any](sys *model.System[S], sit Situation[S], pr *model.Property[S], w *sighting) (model.Property[S], error) {
	name := "situation-of-" + pr.Name
	state := func(f func(s *S) bool) func(s *S) bool {
		return func(s *S) bool {
			if f == nil || f(s) {
				w.add(sys.Encode(nil, s))
			}
			return true
		}
	}
	step := func(f func(b *S, a model.Action, after *S) bool) func(b *S, a model.Action, after *S) bool {
		return func(b *S, a model.Action, after *S) bool {
			if f == nil || f(b, a, after) {
				w.add(fmt.Appendf(sys.Encode(nil, b), "|%d,%d,%d", a.Rule, a.Proc, a.Choice))
			}
			return true
		}
	}
	switch {
	case sit.State != nil:
		return model.InvariantProp(name, "test", "", state(sit.State)), nil
	case sit.End != nil:
		return model.EndProp(name, "test", "", state(sit.End)), nil
	case sit.Step != nil:
		return model.StepProp(name, "test", "", step(sit.Step)), nil
	}
	switch pr.Situation() {
	case model.InState:
		return model.InvariantProp(name, "test", "", state(pr.SituationState())), nil
	case model.AtEnd:
		return model.EndProp(name, "test", "", state(pr.Subject)), nil
	case model.OnStep:
		return model.StepProp(name, "test", "", step(pr.StepSubject)), nil
	}
	if pr.Kind == model.Witness {
		return model.InvariantProp(name, "test", "", state(pr.State)), nil
	}
	return model.Property[S]{}, fmt.Errorf("claim %s declares no situation (model.Property.When): it would never be reported vacuous", pr.Name)
}

// Exercised explores sys fully (it must be small enough for a test) with
// an observer of each situation, and fails the test unless every claim
// passes and its situation arose in at least one state, terminal state or
// transition; for a situation the claim declares, also unless the checker
// reports the pass not vacuous. It returns the run's result and how often
// each situation arose, in sits' order.
func Exercised[S any](t testing.TB, sys *model.System[S], sits ...Situation[S]) (checker.Result, []Arose) {
	t.Helper()
	ws := make([]*sighting, len(sits))
	for i, sit := range sits {
		k := slices.IndexFunc(sys.Props, func(p model.Property[S]) bool { return p.Name == sit.Claim })
		if k < 0 {
			t.Fatalf("%s %s has no claim %s", sys.Spec, sys.Params.String(), sit.Claim)
		}
		ws[i] = &sighting{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
		obs, err := observer(sys, sit, &sys.Props[k], ws[i])
		if err != nil {
			t.Fatal(err)
		}
		sys.Props = append(sys.Props, obs)
	}
	r := Run(t, sys, checker.Options{})
	if r.Reason != "" {
		t.Fatalf("%s %s: the exploration stopped: %s", sys.Spec, sys.Params.String(), r.Reason)
	}
	out := make([]Arose, len(sits))
	for i, sit := range sits {
		out[i] = Arose{sit.Claim, len(ws[i].seen)}
		pr := Prop(t, &r, sit.Claim)
		switch {
		case pr.Verdict != checker.Pass:
			t.Errorf("%s %s: claim %s is %s", sys.Spec, sys.Params.String(), sit.Claim, pr.Verdict)
		case out[i].Count == 0 || (sit.declared() && pr.Vacuous):
			t.Errorf("%s %s: claim %s passes vacuously in %d states: its situation arose in %d (the checker: %s)",
				sys.Spec, sys.Params.String(), sit.Claim, r.States, out[i].Count, pr.Unmet)
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

// PinnedClaims explores each configuration (built with claims on) and
// fails the test unless each claim it names passes with its situation
// arising (Exercised): the one sits gives for it by claim name, else the
// one it declares (sits may be nil). It fails too unless every claim that
// --claims adds to a variant's systems is pinned to some configuration of
// that variant. A claim named for a configuration whose system does not
// have it (another variant's) is left out there.
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
			if slices.Contains(names, name) {
				sit := sits[name]
				sit.Claim = name
				chosen = append(chosen, sit)
				pinned[v][name] = true
			}
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
	for _, pin := range pins {
		for _, name := range pin.Claims {
			if !slices.ContainsFunc(slices.Collect(maps.Values(offered)), func(names map[string]bool) bool { return names[name] }) {
				t.Errorf("no configuration has a claim %s", name)
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
