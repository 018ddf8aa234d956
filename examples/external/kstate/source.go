package kstate

import "embed"

// Source is this package's Go files: mc hashes them into the spec's
// identity, so that a checkpoint of an older version of the spec is
// refused rather than resumed.
//
//go:embed *.go
var Source embed.FS
