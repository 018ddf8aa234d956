package misra

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// Spec is Misra's token loss detection for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "misra", Title: "Misra's ping–pong token loss detection and regeneration, unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 3, Fair: model.FairAction, Bound: "token losses, default 1"},
	Takes: specdef.Chan | specdef.Cap | specdef.Claims | specdef.Bound, MaxN: MaxProcs,
	Source: Source}, Build: New}
