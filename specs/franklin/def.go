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
			CausalUpTo: 5, Ns: specdef.Span(3, 7), CI: specdef.Span(3, 4), Plotted: true,
			Note: "n = 8 is out of reach on one machine: 5,040 classes of about 260,000 states or more (ids 1,8,2,7,3,6,4,5: 258,581), some 1.3 billion states in all (n = 7: 720 classes, 29,332,176 states). " +
				"mc sweep --por stores under half of them (n = 6: 448,693 of 1,084,976; its rows equal the full ones, docs/sweeps.md), which still leaves hours of CPU; " +
				"mc-beam sweep (docs/scale-out.md) is the way past it."}},
	Source: Source}, Build: New}
