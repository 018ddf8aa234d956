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
	// Rule is the seed's rule the slip is in, in the seed's words where it
	// has them ("relay ⟨elect j⟩ when j > id"): docs/mutants.md's rule
	// column.
	Rule string
	// Params is the ring on which the named properties fail.
	Params model.Params
	// Mutate puts the bug into the system built for Params (ReplaceDo).
	Mutate func(sys *model.System[S])
	// Fair, if set, is the fairness the mutant is explored under instead
	// of Kill's: a slip that only an infinite fair run shows.
	Fair *model.Fairness
	// Kills are the properties that fail on the mutant, every one of them.
	Kills []string
	// Survives, for a mutant that no property kills (Kills empty), says
	// why: the slip is equivalent to the seed's rule where it is checked,
	// or no property states what it breaks. Kill requires that nothing
	// fails on it, so a property that comes to kill it is noticed.
	Survives string
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
	survivors, _ = kill(t, build, opt, mutants)
	return survivors
}

// kill is Kill, returning also every property the systems list but
// deadlock.
func kill[S any](t *testing.T, build func(model.Params) (*model.System[S], error), opt checker.Options, mutants []Mutant[S]) (survivors, all []string) {
	t.Helper()
	// One worker: a run that stops at MaxStates then always explores the
	// same states, so what fails within the limit does not vary.
	opt.Workers = 1
	dead := map[string]bool{}
	for _, m := range mutants {
		if len(m.Kills) == 0 && m.Survives == "" {
			t.Errorf("%s: kills nothing and says not why (Survives)", m.Name)
		}
		sys := Build(t, build, m.Params)
		m.Mutate(sys)
		mopt := opt
		if m.Fair != nil {
			mopt.Fair = *m.Fair
		}
		r := Run(t, sys, mopt)
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
	return survivors, all
}

// Survives requires that every property have the same verdict on the
// system mutate makes of each of ps as on the spec's own, each explored
// within opt: a mutant a suite lists as surviving (Mutant.Survives), shown
// to survive beyond the one ring of its row. (A witness may fail on the
// spec's own system where its situation is not in the ring.)
func Survives[S any](t *testing.T, build func(model.Params) (*model.System[S], error), opt checker.Options, mutate func(sys *model.System[S]), ps []model.Params) {
	t.Helper()
	for _, p := range ps {
		want := Verdicts(Run(t, Build(t, build, p), opt))
		sys := Build(t, build, p)
		mutate(sys)
		if got := Verdicts(Run(t, sys, opt)); got != want {
			t.Fatalf("n=%d ids %v initiators %v %s: the mutant gives\n%s\nthe spec\n%s", p.N, p.IDs, p.Initiators, p.Chan, got, want)
		}
	}
}

// InitiatorSets is every non-empty set of initiators of a ring of n.
func InitiatorSets(n int) [][]int {
	var sets [][]int
	for mask := 1; mask < 1<<n; mask++ {
		var set []int
		for i := range n {
			if mask&(1<<i) != 0 {
				set = append(set, i)
			}
		}
		sets = append(sets, set)
	}
	return sets
}
