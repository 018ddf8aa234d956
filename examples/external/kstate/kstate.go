// Package kstate is Dijkstra's K-state self-stabilising token ring, a spec
// that mc does not register: a protocol of one's own, checked by a checker
// of one's own (../main.go).
//
// Source: E. W. Dijkstra, "Self-stabilizing systems in spite of
// distributed control", CACM 17(11), 1974: the solution with K-state
// machines.
//
// Ring: processes 0..n-1; process i reads its own variable x_i and its
// predecessor's x_{i-1} (process 0 reads x_{n-1}). Each x_i is in 0..K-1.
// There are no messages and no channels: a process reads its neighbour's
// state directly (Dijkstra's "central daemon" model), which is what one step
// is: one privileged process, chosen by the scheduler, makes its move.
//
//   - Process 0 (the "bottom") is privileged when x_0 = x_{n-1}; its move is
//     x_0 := (x_0 + 1) mod K.
//   - Process i > 0 is privileged when x_i ≠ x_{i-1}; its move is
//     x_i := x_{i-1}.
//
// A legitimate state has exactly one privileged process: the token. Every
// one of the K^n states is initial: self-stabilisation means converging
// from anywhere.
//
// K is the spec's own parameter k (--param k=K; 0, the default, means
// K = n, Dijkstra's bound).
//
// Properties: closure, a move from a legitimate state leads to a
// legitimate state; convergence, every fair run reaches a legitimate state.
// Convergence holds when K ≥ n − 1; K = n − 2 fails it for n ≥ 4 with a
// lasso: two tokens that chase each other round the ring for ever.
// Dijkstra's first requirement, that some process is always privileged, is
// that no state is terminal: mc's deadlock check, which the spec leaves on
// by declaring no proper end (System.Ends nil). The variant bottom-differs
// swaps the bottom machine's test for the others' (a slip a reader of the
// two guards could make) and deadlocks wherever every x is equal.
package kstate

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// name is the spec's name on the command line.
const name = "kstate"

// Ref is the source every rule and property cites.
const Ref = "Dijkstra 1974, K-state machines"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "dijkstra", Doc: "Dijkstra's K-state machines as published"},
	{Name: "bottom-differs", Doc: "a slip: the bottom machine privileged when x_0 ≠ x_{n-1}, the others' test (deadlocks when every x is equal)"},
}

// Spec is the spec as a checker of one's own registers it (specs.Of).
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: name, Title: "Dijkstra's K-state self-stabilising token ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 4}, Source: Source,
	Params: []specdef.Param{{Name: "k", Doc: "K, the values each x_i takes; 0 means K = n, Dijkstra's bound", Default: 0, Min: 0, Max: 255}},
}, Build: New}

// State is x_0..x_{n-1}. Its copy, encoding and trace variables (p2.x)
// are derived from it by mc-gen.
//
//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type State
type State struct{ X []uint8 }

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant(name, Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	n, k := p.N, p.N
	if given, err := p.Param("k"); err != nil {
		return nil, err
	} else if given > 0 {
		k = given
	}
	if k < 1 || k > 255 || pow(k, n) > 1<<20 {
		return nil, fmt.Errorf("spec kstate: K = %d at n = %d is out of reach (K in 1..255, K^n at most 2^20 initial states)", k, n)
	}
	p.Variant = variant
	bottomDiffers := variant == "bottom-differs"
	privileged := func(s *State, i int) bool {
		if i == 0 {
			return (s.X[0] == s.X[n-1]) != bottomDiffers
		}
		return s.X[i] != s.X[i-1]
	}
	legitimate := func(s *State) bool {
		count := 0
		for i := range n {
			if privileged(s, i) {
				count++
			}
		}
		return count == 1
	}
	return model.Derive(&model.System[State]{
		Spec: name, Variant: variant, Params: p, Procs: n,
		Init: allStates(n, k),
		Rules: []model.Rule[State]{{
			Name: "move", Ref: Ref + ": the move of a privileged machine", Guard: privileged,
			Do: func(s *State, i, _ int) bool {
				if i == 0 {
					s.X[0] = uint8((int(s.X[0]) + 1) % k)
				} else {
					s.X[i] = s.X[i-1]
				}
				return true
			},
		}},
		Props: []model.Property[State]{
			model.StepProp("closure", Ref, "a move from a legitimate state (one privilege) leads to a legitimate state",
				func(before *State, _ model.Action, after *State) bool {
					return !legitimate(before) || legitimate(after)
				}),
			model.EventuallyProp("convergence", Ref, "every fair run reaches a legitimate state", legitimate),
		},
	}), nil
}

// allStates lists the k^n assignments of x, in lexicographic order.
func allStates(n, k int) []State {
	out := make([]State, 0, pow(k, n))
	x := make([]uint8, n)
	for {
		out = append(out, State{X: append([]uint8(nil), x...)})
		i := n - 1
		for i >= 0 && int(x[i]) == k-1 {
			x[i] = 0
			i--
		}
		if i < 0 {
			return out
		}
		x[i]++
	}
}

func pow(k, n int) int {
	r := 1
	for range n {
		if r *= k; r > 1<<30 {
			return r
		}
	}
	return r
}
