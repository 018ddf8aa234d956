package franklin

import "github.com/ringcheck/mc/specs/specdef"

// Spec is Franklin's election for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "franklin", Title: "Franklin election, bidirectional ring: compare with both nearest active neighbours", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "franklin", Kinds: []string{"id"}, Counted: "⟨id⟩ messages (the ⟨leader⟩ announcement not counted)",
			Bound: func(n int) float64 { return 2 * float64(n) * (1 + specdef.Log2(n)) }, Formula: "2n(1+log₂ n)", Ref: "002 §5.5.1",
			Phases: "stages", Phase: "stages", GhostPhases: true,
			PhaseBound: func(n int) float64 { return 1 + specdef.Log2(n) }, PhaseFormula: "1+log₂ n",
			CausalUpTo: 5, Ns: specdef.Span(3, 8), ReducedFrom: 8, CI: specdef.Span(3, 4), Plotted: true,
			Note: "n = 8 is computed on reduced graphs (ReducedFrom, as mc sweep --por): 223,728,378 states, where the full graphs hold some 1.3 billion " +
				"(ids 1,8,2,7,3,6,4,5 alone: 258,581 full, 52,003 reduced). Its worst, best and mean are exact (docs/sweeps.md); its stages are not computed, " +
				"their ghost leaving nothing to reduce. At n = 8, as at n = 4, the worst case meets the bound 2n(1+log₂ n) exactly: 64 messages (ids 1,3,2,7,4,6,5,8)."}},
	Source: Source}, Build: New}
