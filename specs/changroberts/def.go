package changroberts

import (
	"github.com/ringcheck/mc/specs/internal/uniring"
	"github.com/ringcheck/mc/specs/specdef"
)

// electBound is 002 §5.2's worst case: ⟨elect j⟩ travels to the first
// larger id, n(n+1)/2 messages for the descending arrangement.
func electBound(n int) float64 { return float64(n * (n + 1) / 2) }

// harmonicTimes is n·H_n, the average number of ⟨elect⟩ messages with
// every process initiating, over uniformly random arrangements of the ids:
// a process's ⟨elect⟩ makes a k-th hop exactly when its id is the largest
// of the k processes from it on, which has probability 1/k, so it makes
// H_n hops on average, whatever the schedule.
func harmonicTimes(n int) float64 {
	h := 0.0
	for k := n; k >= 1; k-- {
		h += 1 / float64(k)
	}
	return float64(n) * h
}

// Spec is Chang–Roberts for the registry.
var Spec = specdef.Spec[uniring.State]{Info: specdef.Info{
	Name: "changroberts", Title: "Chang–Roberts election, unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5}, MaxN: uniring.MaxProcs,
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "changroberts", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Bound: electBound, Formula: "n(n+1)/2", Ref: "002 §5.2",
			CausalUpTo: 6, Ns: specdef.Span(3, 8), CI: specdef.Span(3, 6), Plotted: true},
		{Name: "changroberts-all-initiate", Variant: "all-initiate", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Bound: electBound, Formula: "n(n+1)/2", Ref: "002 §5.2",
			Mean: harmonicTimes, MeanFormula: "n·H_n (H_n = 1 + 1/2 + … + 1/n), over uniformly random arrangements",
			MeanRef:    "Chang and Roberts 1979, cited by issue #19; the seeds give only the worst case",
			CausalUpTo: 6, Ns: specdef.Span(3, 8), CI: specdef.Span(3, 6), Plotted: true}},
	Source: Source}, Build: New}
