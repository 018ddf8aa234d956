package dkr

import "github.com/ringcheck/mc/specs/specdef"

// Spec is Dolev–Klawe–Rodeh / Peterson for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "dkr", Title: "Dolev–Klawe–Rodeh / Peterson election, unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "dkr", Uncounted: specdef.Announcement, Counted: "(1, ·) and (2, ·) messages, relays included (the ⟨leader⟩ announcement not counted)",
			Bound:   func(n int) float64 { return 2*float64(n)*specdef.Log2(n) + float64(n) },
			Formula: "2n log₂ n + n", Ref: "002 §5.4",
			Phases: "stages", Phase: "stages", GhostPhases: true,
			PhaseBound: func(n int) float64 { return 1 + specdef.Log2(n) }, PhaseFormula: "log₂ n + 1",
			CausalUpTo: 6, Ns: specdef.Span(3, 8), CI: specdef.Span(3, 5), Plotted: true,
			Note: "The worst case is 2n⌊log₂ n⌋ + n (the tests pin it for n ≤ 6), so it meets the bound exactly when n is a power of 2, and no run's count depends on the schedule. " +
				"Stages are the ghost counter `stages`: the most (1, ·) messages one process originated."}},
	Source: Source}, Build: New}
