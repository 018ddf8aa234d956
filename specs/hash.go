package specs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
	"github.com/ringcheck/mc/specs/internal/uniring"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/tokentemplate"
)

// shared are the packages a spec's behaviour may be built from besides its
// own, by import path: what Hash follows a spec's imports into. A spec
// imports nothing under mc/checker (imports_test.go), so an mc package
// outside this list is one Hash refuses.
var shared = map[string]fs.FS{
	"github.com/ringcheck/mc/model":                  model.Source,
	"github.com/ringcheck/mc/ring":                   ring.Source,
	"github.com/ringcheck/mc/invariants":             invariants.Source,
	"github.com/ringcheck/mc/specs/internal/biring":  biring.Source,
	"github.com/ringcheck/mc/specs/internal/uniring": uniring.Source,
	"github.com/ringcheck/mc/specs/specdef":          specdef.Source,
	"github.com/ringcheck/mc/tokentemplate":          tokentemplate.Source,
}

var hashes sync.Map // spec name → string

// Hash identifies the spec's behaviour: a SHA-256 of its package's non-test
// Go sources and those of every package in shared that they import,
// directly or not. Any change to the code that defines the spec's states,
// rules or properties changes it (and so may a change to a comment). A
// checkpoint records it, and a resume refuses another; a store of results
// can key on it.
func (e Entry) Hash() (string, error) {
	if h, ok := hashes.Load(e.Name); ok {
		return h.(string), nil
	}
	if e.Source == nil {
		h, err := executableHash()
		if err != nil {
			return "", fmt.Errorf("spec %s registers no sources (specdef.Info.Source), and this program's own file cannot stand for them: %v", e.Name, err)
		}
		hashes.Store(e.Name, h)
		return h, nil
	}
	h, err := hashSources("github.com/ringcheck/mc/specs/"+e.Name, e.Source, shared)
	if err != nil {
		return "", fmt.Errorf("spec %s: %v", e.Name, err)
	}
	hashes.Store(e.Name, h)
	return h, nil
}

// executableHash is the SHA-256 of this program's own file: what
// identifies a spec that registers no sources. Any rebuild that changes the
// program changes it, so a checkpoint of such a spec resumes only on the
// binary that wrote it: sound, if stricter than need be.
var executableHash = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "exe:" + hex.EncodeToString(h.Sum(nil)), nil
})

// hashSources hashes the package at root, whose files are src, with every
// package of deps that it imports, directly or not: package by package in
// import-path order, file by file in name order, each name and content
// length-prefixed.
func hashSources(root string, src fs.FS, deps map[string]fs.FS) (string, error) {
	pkgs := map[string]fs.FS{root: src}
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		imports, err := importsOf(pkgs[p])
		if err != nil {
			return "", fmt.Errorf("%s: %v", p, err)
		}
		for _, imp := range imports {
			if _, seen := pkgs[imp]; seen || !strings.HasPrefix(imp, "github.com/ringcheck/mc/") {
				continue
			}
			dep, ok := deps[imp]
			if !ok {
				return "", fmt.Errorf("%s imports %s, whose sources the registry does not hold (specs/hash.go)", p, imp)
			}
			pkgs[imp] = dep
			queue = append(queue, imp)
		}
	}
	h := sha256.New()
	field := func(b []byte) {
		h.Write(binary.AppendUvarint(nil, uint64(len(b))))
		h.Write(b)
	}
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		field([]byte(p))
		names, err := goFiles(pkgs[p])
		if err != nil {
			return "", err
		}
		for _, name := range names {
			data, err := fs.ReadFile(pkgs[p], name)
			if err != nil {
				return "", err
			}
			field([]byte(name))
			field(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// goFiles lists a package's non-test Go files, sorted.
func goFiles(src fs.FS) ([]string, error) {
	all, err := fs.Glob(src, "*.go")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range all {
		if !strings.HasSuffix(name, "_test.go") {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Go sources")
	}
	return out, nil
}

// importsOf lists the import paths of a package's non-test Go files.
func importsOf(src fs.FS) ([]string, error) {
	names, err := goFiles(src)
	if err != nil {
		return nil, err
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range names {
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path.Base(name), data, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}
