package kstate_test

import (
	"testing"

	"example.com/kstate-checker/kstate"
	"github.com/ringcheck/mc/conformance"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
)

// The spec passes mc's conformance kit at n = 4, where the variant
// k-too-small (K = 2) is below Dijkstra's bound, and each property is
// failed by a slip.
func TestConformance(t *testing.T) {
	conformance.Check(t, specs.Of(kstate.Spec), conformance.Options{N: 4, Mutants: []conformance.Mutant{
		{Name: "the bottom is privileged when its value differs", Spec: conformance.Mutate(kstate.Spec,
			func(sys *model.System[kstate.State]) {
				move := conformance.Rule(sys, "move")
				guard := move.Guard
				n := sys.Procs
				move.Guard = func(s *kstate.State, i int) bool {
					if i == 0 {
						return s.X[0] != s.X[n-1]
					}
					return guard(s, i)
				}
			})},
		{Name: "a process copies its predecessor's value plus one", Spec: conformance.Mutate(kstate.Spec,
			func(sys *model.System[kstate.State]) {
				move := conformance.Rule(sys, "move")
				do := move.Do
				move.Do = func(s *kstate.State, i, k int) bool {
					if i == 0 {
						return do(s, i, k)
					}
					s.X[i] = uint8((int(s.X[i-1]) + 1) % sys.Procs)
					return true
				}
			})},
		{Name: "K = n − 2", Spec: specs.Of(kstate.Spec), Variant: "k-too-small"},
	}})
}

// The K-state ring's figures at n = 4: 4^4 initial states, every one
// reachable and none terminal; with K = 2 a lasso of 8 steps.
func TestFigures(t *testing.T) {
	for _, c := range []struct {
		variant string
		fails   string
	}{{"k-equals-n", ""}, {"k-too-small", "convergence"}} {
		sys, err := kstate.New(model.Params{N: 4, IDs: []int{4, 3, 2, 1}, Variant: c.variant})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"k-equals-n": 256, "k-too-small": 16}[c.variant]; len(sys.Init) != want {
			t.Fatalf("%s: %d initial states, want %d", c.variant, len(sys.Init), want)
		}
	}
}
