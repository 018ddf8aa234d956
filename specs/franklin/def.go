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
			CausalUpTo: 5, Ns: specdef.Span(3, 6), CI: specdef.Span(3, 4), Plotted: true,
			Note: "n = 7 and n = 8 are out of reach here. One class's graph grows about fivefold from n = 6 (about 9,000 states) to n = 7 (37,000 to 47,000 states, 1 to 2 s each in mc check on the shared machine), and n = 7 has 720 classes, some 30 million states; " +
				"n = 8 has 5,040 classes of about 260,000 states or more (ids 1,8,2,7,3,6,4,5: 258,581), some 1.3 billion states in all. " +
				"Partial-order reduction does not close the gap on this bidirectional ring (docs/reduction.md: --por stores a fifth to a half of the states). " +
				"Issue 21 (sweeps as Beam pipelines) is the way past it."}},
	Source: Source}, Build: New}
