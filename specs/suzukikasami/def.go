package suzukikasami

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// Spec is Ricart–Agrawala / Suzuki–Kasami for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "suzukikasami", Title: "Ricart–Agrawala / Suzuki–Kasami token mutual exclusion, fully connected", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 3, Chan: model.Bag, Bound: "requests per process, default 1"},
	Takes: specdef.Chan | specdef.Cap | specdef.Claims | specdef.Bound, MaxN: MaxProcs,
	Source: Source}, Build: New}
