package hs

import "mc/specs/specdef"

// Spec is Hirschberg–Sinclair for the registry. Its variants have two
// state types: 002's processes and 004's hold different variables.
var Spec = specdef.Split[RaynalState, ProbeState]{Info: specdef.Info{
	Name: "hs", Title: "Hirschberg–Sinclair election, bidirectional ring: candidatures over doubling distances", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "hs", Kinds: []string{"candidature", "response"}, Counted: "candidature and response messages (the ⟨ended⟩ announcement not counted)",
			Bound: func(n int) float64 { return 8 * float64(n) * (1 + specdef.Log2(n)) }, Formula: "8n(1+log₂ n)", Ref: "002 §5.3",
			CausalUpTo: 4, Ns: specdef.Span(3, 5), CI: []int{3}, Plotted: true,
			Note: "n = 6 is out of reach here: n = 5 has 24 classes, 4.0 million states and 20 million transitions (about 45 CPU-seconds), " +
				"each class's graph grew about tenfold from n = 4 to 5, and n = 6 has 120 classes. " +
				"Phases are not measured: hs counts them in a ghost that adds states (2,221 instead of 1,567 for ids 1,2,3)."}},
	Source: Source}, Build: Build}
