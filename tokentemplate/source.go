package tokentemplate

import "embed"

// Source is this package's Go files: the registry hashes them into the
// identity of every spec written as a template (specs/hash.go), since the
// template's rules are built here.
//
//go:embed *.go
var Source embed.FS
