package specdef

import "embed"

// Source is this package's Go files, which the registry hashes with every
// spec's (specs.Entry.Hash): a spec's value is built from them.
//
//go:embed *.go
var Source embed.FS
