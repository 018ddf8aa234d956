package specs

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/specdef"
)

// Every registered spec builds on its defaults and passes there; an unknown
// spec is refused. (The conformance kit checks what every spec cites and
// names: conformance/registry_test.go.)
func TestEverySpecPassesOnItsDefaults(t *testing.T) {
	for _, e := range All() {
		tg, err := e.Build(model.Params{N: e.Defaults.N, IDs: e.IDs(e.Defaults.N)})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		// Two workers: under the race detector (CI's -race step runs this
		// package, not every spec's own) every spec's rules and properties
		// are then run by goroutines side by side.
		if r := tg.Check(context.Background(), checker.Options{Fair: e.Defaults.Fair, Workers: 2}); r.Verdict != checker.Pass {
			t.Errorf("%s on its defaults: %s", e.Name, r.Verdict)
		}
	}
	if _, err := Lookup("nosuch"); err == nil {
		t.Fatal("unknown spec accepted")
	}
}

// Every spec's declared symmetry is a real one: each arrangement of n ≤ 4
// (n = 3 with -short, CI's race run) has the same verdict, state count and
// transition count as its class's representative, which is what mc check
// --all-ids checks instead of it.
func TestDeclaredSymmetriesHold(t *testing.T) {
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	for _, e := range All() {
		if e.Anonymous() {
			continue // no ids to arrange
		}
		for n := 3; n <= maxN; n++ {
			reps := map[string]checker.Result{}
			for _, cl := range ring.ArrangementClasses(n, e.Symmetry) {
				reps[fmt.Sprint(cl.Rep)] = run(t, e, n, cl.Rep)
			}
			for _, ids := range ring.Arrangements(n) {
				r, rep := run(t, e, n, ids), reps[fmt.Sprint(canonicalOf(ids, e.Symmetry))]
				if r.Verdict != rep.Verdict || r.States != rep.States || r.Transitions != rep.Transitions {
					t.Fatalf("%s ids %v: %s %d/%d, but its class representative: %s %d/%d",
						e.Name, ids, r.Verdict, r.States, r.Transitions, rep.Verdict, rep.States, rep.Transitions)
				}
			}
		}
	}
}

func run(t *testing.T, e Entry, n int, ids []int) checker.Result {
	t.Helper()
	tg, err := e.Build(model.Params{N: n, IDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	return tg.Check(context.Background(), checker.Options{Workers: 1})
}

// canonicalOf finds ids' class representative the long way: the smallest of
// all its images.
func canonicalOf(ids []int, sym ring.Symmetry) []int {
	for _, cl := range ring.ArrangementClasses(len(ids), sym) {
		n := len(ids)
		for r := 0; r < n; r++ {
			rot, refl := make([]int, n), make([]int, n)
			for i := range ids {
				rot[i] = ids[(i+r)%n]
				refl[i] = ids[((r-i)%n+n)%n]
			}
			if fmt.Sprint(rot) == fmt.Sprint(cl.Rep) || (sym == ring.RotationReflection && fmt.Sprint(refl) == fmt.Sprint(cl.Rep)) {
				return cl.Rep
			}
		}
	}
	return nil
}

// Every message a spec's View shows names its kind (model.Kinded), which
// sweeps count messages by: checked on the first states of every variant.
func TestEveryViewNamesItsMessagesKinds(t *testing.T) {
	for _, e := range All() {
		for _, v := range e.Variants {
			p := model.Params{N: e.Defaults.N, IDs: e.IDs(e.Defaults.N), Variant: v.Name}
			if e.Takes.Has(specdef.Drift) {
				p.Drift = 1
			}
			tg, err := e.Build(p)
			if err != nil {
				t.Fatalf("%s variant %s: %v", e.Name, v.Name, err)
			}
			if err := viewKinds(tg, 2000); err != nil {
				t.Errorf("%s variant %s: %v", e.Name, v.Name, err)
			}
		}
	}
}

// viewKinds walks up to limit states of st breadth-first and checks that
// every message of their views has a kind.
func viewKinds(st checker.Stepper, limit int) error {
	queue := st.Initial()
	seen := map[checker.State]bool{}
	for len(queue) > 0 && len(seen) < limit {
		s := queue[0]
		queue = queue[1:]
		if seen[s] {
			continue
		}
		seen[s] = true
		snap, err := st.Inspect(s)
		if err != nil {
			return err
		}
		if snap.View == nil {
			return nil // no view: nothing to count by kind
		}
		for _, l := range snap.View.Chans {
			if len(l.Kinds) != len(l.Msgs) {
				return fmt.Errorf("channel %s shows %d messages and %d kinds", l.Name, len(l.Msgs), len(l.Kinds))
			}
			for i, k := range l.Kinds {
				if k == "" {
					return fmt.Errorf("message %s on %s names no kind", l.Msgs[i], l.Name)
				}
			}
		}
		moves, err := st.Moves(s)
		if err != nil {
			return err
		}
		for _, m := range moves {
			queue = append(queue, m.To)
		}
	}
	return nil
}
