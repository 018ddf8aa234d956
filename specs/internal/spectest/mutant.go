package spectest

import (
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// Mutant is a deliberate bug that a test puts into a built system, to show
// that the properties it names can fail: a property no bug can break checks
// nothing (docs/mutants.md). The bug lives in the test, never in the spec's
// code.
type Mutant[S any] struct {
	// Name says what changed, the kind of mutation first ("comparison
	// flipped: ...").
	Name string
	// Params is the ring on which the named properties fail.
	Params model.Params
	// Mutate puts the bug into the system built for Params (ReplaceDo).
	Mutate func(sys *model.System[S])
	// Kills are the properties that fail on the mutant, every one of them.
	Kills []string
}

// ReplaceDo replaces the effect of sys's rule called name by do.
func ReplaceDo[S any](sys *model.System[S], name string, do func(s *S, p, k int) bool) {
	rule(sys, name).Do = do
	distrust(sys)
}

// ReplaceGuard replaces the guard of sys's rule called name by guard.
func ReplaceGuard[S any](sys *model.System[S], name string, guard func(s *S, p int) bool) {
	rule(sys, name).Guard = guard
	distrust(sys)
}

// distrust drops what the original rules vouched for and a mutant need not
// respect: every rule's footprint and Ready, and the termination measure.
func distrust[S any](sys *model.System[S]) {
	for i := range sys.Rules {
		sys.Rules[i].Footprint, sys.Rules[i].Ready = nil, nil
	}
	sys.Termination = nil
}

// rule is sys's rule called name.
func rule[S any](sys *model.System[S], name string) *model.Rule[S] {
	for i := range sys.Rules {
		if sys.Rules[i].Name == name {
			return &sys.Rules[i]
		}
	}
	panic("no rule " + name + " in " + sys.Spec)
}

// Kill builds each mutant with build, explores it within opt (with
// MaxStates, since a mutant may not terminate, and the spec's fairness),
// checking every property to the end, and fails the test unless exactly
// the properties the mutant names fail, each but a witness with a trace.
// It returns the properties no mutant kills, in the order the systems list
// them: the score is the share of the others. The deadlock property is
// mc's own check, not a claim of the spec, and never a survivor: a spec
// that declares every terminal state proper (model.EveryEnd) leaves it
// nothing to kill; a mutant that fails it names it all the same.
func Kill[S any](t *testing.T, build func(model.Params) (*model.System[S], error), opt checker.Options, mutants []Mutant[S]) (survivors []string) {
	t.Helper()
	// One worker: a run that stops at MaxStates then always explores the
	// same states, so what fails within the limit does not vary.
	opt.Workers = 1
	dead := map[string]bool{}
	var all []string
	for _, m := range mutants {
		sys := Build(t, build, m.Params)
		m.Mutate(sys)
		r := Run(t, sys, opt)
		t.Logf("%s: %d states", m.Name, r.States)
		var failed []string
		for _, p := range r.Props {
			if !slices.Contains(all, p.Name) && p.Name != model.Deadlock {
				all = append(all, p.Name)
			}
			if p.Verdict != checker.Fail {
				continue
			}
			failed = append(failed, p.Name)
			if p.Kind != model.Witness && p.Trace == nil {
				t.Errorf("%s on %v: %s fails without a trace", m.Name, m.Params.IDs, p.Name)
			}
		}
		if !slices.Equal(failed, m.Kills) {
			t.Errorf("%s on n=%d ids %v: failing %v, want %v", m.Name, m.Params.N, m.Params.IDs, failed, m.Kills)
		}
		for _, name := range failed {
			dead[name] = true
		}
	}
	for _, name := range all {
		if !dead[name] {
			survivors = append(survivors, name)
		}
	}
	return survivors
}
