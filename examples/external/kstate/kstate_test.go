package kstate_test

import (
	"testing"

	"example.com/kstate-checker/kstate"
	"github.com/ringcheck/mc/conformance"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
)

// The spec passes mc's conformance kit at n = 4, where K = 2 is below
// Dijkstra's bound, and each property is
// failed by a slip.
func TestConformance(t *testing.T) {
	conformance.Check(t, specs.Of(kstate.Spec), conformance.Options{N: 4, Mutants: []conformance.Mutant{
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
		{Name: "K = n − 2", Spec: specs.Of(kstate.Spec), Own: []model.Param{{Name: "k", Value: 2}}},
		{Name: "the bottom machine tests x_0 ≠ x_{n-1}", Spec: specs.Of(kstate.Spec), Variant: "bottom-differs"},
	}})
}

// The K-state ring's initial states at n = 4: K^4 of them, K = n unless
// --param k says otherwise.
func TestInitialStates(t *testing.T) {
	for k, want := range map[int]int{0: 256, 2: 16, 3: 81} {
		sys, err := kstate.New(model.Params{N: 4, IDs: []int{4, 3, 2, 1}, Own: []model.Param{{Name: "k", Value: k}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(sys.Init) != want {
			t.Errorf("k=%d: %d initial states, want %d", k, len(sys.Init), want)
		}
	}
}
