package franklin

import "mc/specs/specdef"

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
			Ns: specdef.Span(3, 5), CI: specdef.Span(3, 4), Plotted: true}},
	Source: Source}, Build: New}
