package changroberts

import (
	"mc/specs/internal/uniring"
	"mc/specs/specdef"
)

// electBound is 002 §5.2's worst case: ⟨elect j⟩ travels to the first
// larger id, n(n+1)/2 messages for the descending arrangement.
func electBound(n int) float64 { return float64(n * (n + 1) / 2) }

// Spec is Chang–Roberts for the registry.
var Spec = specdef.Spec[uniring.State]{Info: specdef.Info{
	Name: "changroberts", Title: "Chang–Roberts election, unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "changroberts", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Bound: electBound, Formula: "n(n+1)/2", Ref: "002 §5.2",
			CausalUpTo: 6, Ns: specdef.Span(3, 7), CI: specdef.Span(3, 6), Plotted: true},
		{Name: "changroberts-all-initiate", Variant: "all-initiate", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Bound: electBound, Formula: "n(n+1)/2", Ref: "002 §5.2",
			CausalUpTo: 6, Ns: specdef.Span(3, 7), CI: specdef.Span(3, 6), Plotted: true}},
	Source: Source}, Build: New}
