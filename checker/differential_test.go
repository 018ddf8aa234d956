package checker_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs"
)

// diffSeeds is the number of random specs TestDifferentialRandomSpecs
// checks: MC_DIFF_SEEDS, default 300 (about 20 s). MC_DIFF_SEED0 moves
// the first seed, to explore new ground in a long run.
func diffSeeds(t *testing.T) (first, n uint64) {
	n = 300
	if testing.Short() {
		n = 30
	}
	for name, dst := range map[string]*uint64{"MC_DIFF_SEEDS": &n, "MC_DIFF_SEED0": &first} {
		if v := os.Getenv(name); v != "" {
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("%s=%q: %v", name, v, err)
			}
			*dst = x
		}
	}
	return first, n
}

// randomSize draws the size of seed's spec.
func randomSize(seed uint64) randSize {
	r := rand.New(rand.NewPCG(seed, 1))
	return randSize{Procs: 1 + r.IntN(3), Vars: 1 + r.IntN(4), Bound: 2 + r.IntN(3), Chans: r.IntN(3), Rules: 2 + r.IntN(5), Props: 1 + r.IntN(4)}
}

// Every mode of mc agrees with the reference checker on random specs. A
// mismatch reports the seed and the smallest spec from it that still fails.
func TestDifferentialRandomSpecs(t *testing.T) {
	first, n := diffSeeds(t)
	fails := func(g *rspec) string { return diffModes(t, checker.Of(g.system()), modes, g.seed) }
	for seed := first; seed < first+n; seed++ {
		g := genSpec(seed, randomSize(seed))
		why := fails(g)
		if why == "" {
			continue
		}
		small := shrink(seed, g.size, func(g *rspec) bool { return fails(g) != "" })
		t.Fatalf("seed %d: %s\nsmallest failing spec (%s):\n%s", seed, why, fails(small), small)
	}
}

// smallParams are the registered specs' parameters for the differential
// test: the smallest ring each takes, with the claims on (more properties,
// ghost variables in the state), FIFO and bag.
func smallParams(e specs.Entry) []model.Params {
	var out []model.Params
	for _, v := range e.Variants {
		for _, ch := range []model.ChanKind{model.FIFO, model.Bag} {
			for n := 2; n <= 4; n++ {
				p := model.Params{N: n, IDs: e.IDs(n), Variant: v.Name, Chan: ch, Claims: true}
				tg, err := e.Build(p)
				if err != nil {
					continue
				}
				// Keep the suite quick: a spec too large at its smallest
				// ring is left to its own package's tests. A run that
				// fails still stops at the limit (Reason says so): its
				// verdict is settled, its state space is not.
				if r := tg.Check(context.Background(), checker.Options{Workers: 1, Safety: true, MaxStates: 10000, Continue: true}); r.Reason == "" {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

// Every mode of mc agrees with the reference checker on every registered
// spec and variant at its smallest ring.
func TestDifferentialRegisteredSpecs(t *testing.T) {
	for _, e := range specs.All() {
		ps := smallParams(e)
		if len(ps) == 0 {
			t.Errorf("%s: no variant builds at n ≤ 4", e.Name)
		}
		for _, p := range ps {
			tg, err := e.Build(p)
			if err != nil {
				t.Fatal(err)
			}
			if why := diffModes(t, tg, modes, registeredSeed()); why != "" {
				t.Errorf("%s %+v: %s", e.Name, p, why)
			}
		}
	}
}

// registeredSeed selects the modes run on registered specs: all (seed 0),
// or with -short (the race detector's CI run) those due on every seed.
func registeredSeed() uint64 {
	if testing.Short() {
		return 1
	}
	return 0
}

// classOf is the representative of a's class under sym, computed here from
// ring.RingSymmetries, independently of ring.ArrangementClasses.
func classOf(a []int, sym ring.Symmetry) string {
	best := slices.Clone(a)
	none := make([]bool, len(a))
	for _, g := range ring.RingSymmetries(len(a)) {
		if g.Reflect && sym != ring.RotationReflection {
			continue
		}
		if img, _ := g.Apply(a, none); slices.Compare(img, best) < 0 {
			best = img
		}
	}
	return fmt.Sprint(best)
}

// figures is what --all-ids reports of a class's representative and takes
// for every member: counts and per-property verdicts.
func figures(r checker.Result) string {
	s := fmt.Sprintf("%s states=%d transitions=%d terminal=%d depth=%d", r.Verdict, r.States, r.Transitions, r.Terminal, r.Depth)
	for _, p := range r.Props {
		s += fmt.Sprintf(" %s=%s", p.Name, p.Verdict)
		if p.Trace != nil {
			s += fmt.Sprintf("/%d", len(p.Trace.Steps))
		}
	}
	return s
}

// --all-ids checks one arrangement per class and reports its results for
// the whole class: every member of every class must have the same figures
// and verdicts as its representative, for every spec, variant and channel
// kind, with the claims on (a property that named a fixed process would
// make members differ).
func TestAllIDsClassMembersAgree(t *testing.T) {
	for _, e := range specs.All() {
		for _, p := range smallParams(e) {
			n := max(p.N, 3)
			if n > 3 {
				continue // 24 or more arrangements of a larger spec: too slow for CI
			}
			if testing.Short() && p.Chan == model.Bag {
				continue // CI's race run: FIFO channels only, half the time
			}
			reps := map[string]string{}
			for _, c := range ring.ArrangementClasses(n, e.Symmetry) {
				p.N, p.IDs = n, c.Rep
				reps[fmt.Sprint(c.Rep)] = figures(check(t, e, p))
			}
			for _, a := range ring.Arrangements(n) {
				p.IDs = a
				rep := classOf(a, e.Symmetry)
				want, ok := reps[rep]
				if !ok {
					t.Fatalf("%s: arrangement %v has representative %s, which --all-ids does not check", e.Name, a, rep)
				}
				if got := figures(check(t, e, p)); got != want {
					t.Errorf("%s %s %s ids %v: %s\nits class's representative %s: %s", e.Name, p.Variant, p.Chan, a, got, rep, want)
				}
			}
		}
	}
}

func check(t *testing.T, e specs.Entry, p model.Params) checker.Result {
	t.Helper()
	tg, err := e.Build(p)
	if err != nil {
		t.Fatalf("%s %+v: %v", e.Name, p, err)
	}
	r := tg.Check(context.Background(), checker.Options{Workers: 1, Safety: true, Continue: true})
	if r.Err != nil {
		t.Fatalf("%s %+v: %v", e.Name, p, r.Err)
	}
	return r
}
