package conformance

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// Mutant is a spec with a slip in it, which some property must catch.
type Mutant struct {
	// Name says what the slip is: "bottom copies its predecessor".
	Name string
	// Spec is the spec with the slip (Mutate builds one).
	Spec specs.Entry
	// Variant and N, if set, are the variant and the ring size the mutant
	// is checked at: a slip that shows only there. By default, the spec's
	// default variant at Options' ring size.
	Variant string
	N       int
	// Own, if not nil, are the spec's own parameters (--param) the mutant
	// is checked with; the others keep their defaults.
	Own []model.Param
}

// Mutate is spec s with mutate applied to every system it builds: a slip
// to kill, such as a rule's Do replaced by a wrong one.
func Mutate[S any](s specdef.Spec[S], mutate func(sys *model.System[S])) specs.Entry {
	build := s.Build
	s.Build = func(p model.Params) (*model.System[S], error) {
		sys, err := build(p)
		if err == nil {
			mutate(sys)
		}
		return sys, err
	}
	return specs.Of(s)
}

// Rule returns the rule of sys named name, for a mutant to change; nil if
// there is none.
func Rule[S any](sys *model.System[S], name string) *model.Rule[S] {
	for i := range sys.Rules {
		if sys.Rules[i].Name == name {
			return &sys.Rules[i]
		}
	}
	return nil
}

// Mutants checks every mutant of opt (each run to the end: every property
// decided) and requires that every property of e's default variant fail on
// at least one of them, and that every mutant fail some property: a
// property no mutant fails is not shown to check anything, and a mutant
// that fails nothing is a slip the properties let through. The property
// deadlock is mc's own check, not one of the spec's: it need not fail (a
// spec without terminal states, or one that declares every terminal state
// proper, leaves it nothing to catch), but a mutant may kill it.
func Mutants(t *testing.T, e specs.Entry, opt Options) {
	if len(opt.Mutants) == 0 {
		t.Fatal("no mutants given: every property must be shown able to fail")
	}
	n := opt.ringSize(e)
	p := configurations(e, n)[e.Variants[0].Name]
	tg, err := e.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	killed := map[string][]string{}
	for _, m := range opt.Mutants {
		mp := p
		if m.Variant != "" {
			mp.Variant = m.Variant
		}
		if m.Own != nil {
			mp.Own = m.Own
		}
		if m.N != 0 && m.N != n {
			mp.N, mp.IDs = m.N, e.IDs(m.N)
		}
		mt, err := m.Spec.Build(mp)
		if err != nil {
			t.Fatalf("mutant %q: %v", m.Name, err)
		}
		r := mt.Check(context.Background(), checker.Options{Fair: e.Defaults.Fair, Continue: true, MaxStates: int64(opt.maxStates())})
		if r.Err != nil {
			t.Fatalf("mutant %q: %v", m.Name, r.Err)
		}
		var failed []string
		for _, pr := range r.Props {
			if pr.Verdict == checker.Fail {
				failed = append(failed, pr.Name)
				killed[pr.Name] = append(killed[pr.Name], m.Name)
			}
		}
		switch {
		case len(failed) > 0:
			t.Logf("mutant %q fails %s", m.Name, strings.Join(failed, ", "))
		case r.Verdict == checker.Incomplete:
			t.Errorf("mutant %q: no property failed in the %d states explored (%s)", m.Name, r.States, r.Reason)
		default:
			t.Errorf("mutant %q survives: every property passes", m.Name)
		}
	}
	for _, pr := range tg.Props() {
		if len(killed[pr.Name]) == 0 && pr.Name != model.Deadlock {
			t.Errorf("property %s: no mutant fails it", pr.Name)
		}
	}
	if t.Failed() {
		names := make([]string, 0, len(opt.Mutants))
		for _, m := range opt.Mutants {
			names = append(names, m.Name)
		}
		t.Logf("mutants: %s", strings.Join(slices.Sorted(slices.Values(names)), "; "))
	}
}
