package example

import "github.com/ringcheck/mc/specs/specdef"

// Spec is the example as the registry would take it (it is left out, so
// that mc's commands do not offer Chang–Roberts twice): its name, seed,
// variants and defaults, the knobs it reads, and New.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "example", Title: "Chang–Roberts election, cut down: the worked example of docs/writing-a-spec.md", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 4},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap, Source: Source}, Build: New}
