package lelann

import (
	"mc/specs/internal/uniring"
	"mc/specs/specdef"
)

// Spec is LeLann's election for the registry.
var Spec = specdef.Spec[uniring.State]{Info: specdef.Info{
	Name: "lelann", Title: "LeLann-style election: every id sent, only larger passed on", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "lelann", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Formula: "— (the seeds README gives none)", Ref: "004",
			CausalUpTo: 6, Ns: specdef.Span(3, 7), CI: specdef.Span(3, 5),
			Note: "n = 8 was out of reach here: 5,040 classes of 2,600 to 9,900 states (ids 1,2,…,8 and 1,8,7,…,2), some 25 million states, about 6 CPU-minutes at the rate of this machine's changroberts n = 7 sweep (1,657,350 states in 25 CPU-seconds, 15 µs a state), but more than this session's share of a 2-core machine shared by six (load 15) could give it: `go run ./cmd/mc sweep lelann --n 8`, or issue 21's Beam pipelines, which spread the classes over machines."}},
	Source: Source}, Build: New}
