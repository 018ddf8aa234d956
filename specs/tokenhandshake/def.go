package tokenhandshake

import "github.com/ringcheck/mc/specs/specdef"

// Spec is the handshake token ring for the registry. Like tokenring it
// takes none of the optional knobs: no ids, no initiators, one token.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "tokenhandshake", Title: "mutual exclusion on a unidirectional token ring, each user asking its process by a request/acknowledge handshake", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 4},
	Source: Source, Template: Template}, Build: New}
