package lelann

import (
	"github.com/ringcheck/mc/specs/internal/uniring"
	"github.com/ringcheck/mc/specs/specdef"
)

// Spec is LeLann's election for the registry.
var Spec = specdef.Spec[uniring.State]{Info: specdef.Info{
	Name: "lelann", Title: "LeLann-style election: every id sent, only larger passed on", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5}, MaxN: uniring.MaxProcs,
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{
		{Name: "lelann", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
			Formula: "— (the seeds README gives none)", Ref: "004",
			CausalUpTo: 6, Ns: specdef.Span(3, 8), CI: specdef.Span(3, 5)}},
	Source: Source}, Build: New}
