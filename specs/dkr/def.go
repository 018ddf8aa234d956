package dkr

import (
	"math"

	"mc/specs/specdef"
)

// Spec is Dolev–Klawe–Rodeh / Peterson for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "dkr", Title: "Dolev–Klawe–Rodeh / Peterson election, unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "dkr", Uncounted: specdef.Announcement, Counted: "(1, ·) and (2, ·) messages, relays included (the ⟨leader⟩ announcement not counted)",
			Bound:   func(n int) float64 { return float64(2*n*int(math.Ceil(specdef.Log2(n))) + n) },
			Formula: "2n log n + n, log read as ⌈log₂ n⌉", Ref: "002 §5.4",
			Phases: "stages", Phase: "stages", GhostPhases: true,
			PhaseBound: func(n int) float64 { return 1 + specdef.Log2(n) }, PhaseFormula: "log₂ n + 1",
			CausalUpTo: 6, Ns: specdef.Span(3, 7), CI: specdef.Span(3, 5), Plotted: true,
			Note: "The worst case is 2n⌊log₂ n⌋ + n (the tests pin it for n ≤ 6), so it meets the bound exactly when n is a power of 2, and no run's count depends on the schedule. " +
				"Stages are the ghost counter `stages`: the most (1, ·) messages one process originated. " +
				"n = 8 was out of reach here: 5,040 classes of 7,100 to 7,800 states (ids 1,2,…,8 and 1,3,5,7,2,4,6,8), some 38 million states, about 10 CPU-minutes at the rate of this machine's changroberts n = 7 sweep (1,657,350 states in 25 CPU-seconds, 15 µs a state), but more than this session's share of a 2-core machine shared by six (load 15) could give it: `go run ./cmd/mc sweep dkr --n 8`, or issue 21's Beam pipelines, which spread the classes over machines."}},
	Source: Source}, Build: New}
