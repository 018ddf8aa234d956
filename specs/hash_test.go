package specs

import (
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// Every spec hashes, each to its own value, and the binary hashes what the
// spec's directory holds: Source embeds every non-test Go file there.
func TestEverySpecHasAHashOfItsSources(t *testing.T) {
	seen := map[string]string{}
	for _, e := range All() {
		h, err := e.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := seen[h]; dup {
			t.Errorf("%s and %s hash alike", e.Name, other)
		}
		seen[h] = e.Name
		onDisk, err := hashSources("github.com/ringcheck/mc/specs/"+e.Name, os.DirFS(e.Name), shared)
		if err != nil || onDisk != h {
			t.Errorf("%s: the embedded sources hash to %s, the directory's to %s (%v)", e.Name, h, onDisk, err)
		}
	}
}

// copyFS copies src into a map file system, to be edited.
func copyFS(t *testing.T, src fs.FS) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	names, err := fs.Glob(src, "*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(src, name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = &fstest.MapFile{Data: data}
	}
	return out
}

// A spec's hash changes when its code, or the code of a package it is built
// on, changes; not when a test changes, nor when a shared package it does
// not import does.
func TestSpecHashFollowsItsSources(t *testing.T) {
	hash := func(src fs.FS, deps map[string]fs.FS) string {
		h, err := hashSources("github.com/ringcheck/mc/specs/changroberts", src, deps)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	with := func(path string, src fs.FS) map[string]fs.FS {
		deps := map[string]fs.FS{}
		for p, s := range shared {
			deps[p] = s
		}
		deps[path] = src
		return deps
	}
	base := hash(changroberts.Source, shared)
	edited := copyFS(t, changroberts.Source)
	edited["spec.go"].Data = append(edited["spec.go"].Data, "\n// a change\n"...)
	test := copyFS(t, changroberts.Source)
	test["spec_test.go"].Data = append(test["spec_test.go"].Data, "\n// a change\n"...)
	mdl := copyFS(t, model.Source)
	mdl["chan.go"].Data = append(mdl["chan.go"].Data, "\n// a change\n"...)
	rng := copyFS(t, ring.Source)
	rng["chan.go"].Data = append(rng["chan.go"].Data, "\n// a change\n"...)
	bi := copyFS(t, biring.Source)
	bi["net.go"].Data = append(bi["net.go"].Data, "\n// a change\n"...)
	for _, c := range []struct {
		what string
		got  string
		same bool
	}{
		{"the spec's code changed", hash(edited, shared), false},
		{"model, which it imports, changed", hash(changroberts.Source, with("github.com/ringcheck/mc/model", mdl)), false},
		{"its test changed", hash(test, shared), true},
		{"ring, which it imports through uniring, changed", hash(changroberts.Source, with("github.com/ringcheck/mc/ring", rng)), false},
		{"biring, which it does not import, changed", hash(changroberts.Source, with("github.com/ringcheck/mc/specs/internal/biring", bi)), true},
	} {
		if (c.got == base) != c.same {
			t.Errorf("%s: hash %s, before %s", c.what, c.got, base)
		}
	}
	if _, err := hashSources("github.com/ringcheck/mc/specs/changroberts", changroberts.Source, map[string]fs.FS{}); err == nil {
		t.Error("a spec whose shared packages the registry does not hold hashes without error")
	}
}
