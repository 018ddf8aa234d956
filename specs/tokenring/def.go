package tokenring

import "github.com/ringcheck/mc/specs/specdef"

// Spec is the token ring for the registry. It takes none of the optional
// knobs: its processes have no ids, all start alike, its environment is
// unbounded and its one token makes the channels' semantics and capacity
// irrelevant.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "tokenring", Title: "mutual exclusion by a token circulating on a unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 4},
	Source: Source, Template: Template}, Build: New}
