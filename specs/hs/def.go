package hs

import "github.com/ringcheck/mc/specs/specdef"

// Spec is Hirschberg–Sinclair for the registry. Its variants have two
// state types: 002's processes and 004's hold different variables.
var Spec = specdef.Split[RaynalState, ProbeState]{Info: specdef.Info{
	Name: "hs", Title: "Hirschberg–Sinclair election, bidirectional ring: candidatures over doubling distances", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "hs", Kinds: []string{"candidature", "response"}, Counted: "candidature and response messages (the ⟨ended⟩ announcement not counted)",
			Bound: func(n int) float64 { return 8 * float64(n) * (1 + specdef.Log2(n)) }, Formula: "8n(1+log₂ n)", Ref: "002 §5.3",
			CausalUpTo: 4, Ns: specdef.Span(3, 6), ReducedFrom: 6, CI: []int{3}, Plotted: true,
			Note: "n = 6 is computed on reduced graphs (ReducedFrom, as mc sweep --por): 120 classes, 60,104,104 states (n = 5 has 3,992,164 states, " +
				"1,529,769 of them in its reduced graphs); its worst, best and mean are exact (docs/sweeps.md). " +
				"n = 7 is out of reach on one machine: 720 classes, each graph again about tenfold. " +
				"Phases are not measured: hs counts them in a ghost that adds states (2,221 instead of 1,567 for ids 1,2,3)."}},
	Source: Source}, Build: Build}
