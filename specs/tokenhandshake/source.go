package tokenhandshake

import "embed"

// Source is this package's Go files. The registry hashes the non-test ones
// into the identity of every spec built on them (specs.Entry.Hash), so that
// a checkpoint of a spec whose code has since changed is refused.
//
//go:embed *.go
var Source embed.FS
