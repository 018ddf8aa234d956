package specs

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A spec defines a system; exploring it is the checker's business. So the
// contract a spec is written against is model (with ring, invariants and
// specdef), and no package under specs/ depends on anything under
// mc/checker, directly or not: a spec can be read, built and tested
// against that contract alone. Two packages there run the checker and are
// no part of a spec's contract: the registry, which binds each spec to the
// checker (Of), and the kit the spec packages' tests explore with.
// Tests themselves may run the checker too.
var runTheChecker = map[string]bool{
	"github.com/ringcheck/mc/specs":                   true,
	"github.com/ringcheck/mc/specs/internal/spectest": true,
}

// checkerPath is the engine's import path: it and every package under it.
const checkerPath = "github.com/ringcheck/mc/checker"

func underChecker(path string) bool {
	return path == checkerPath || strings.HasPrefix(path, checkerPath+"/")
}

// checkerDeps maps each package of pattern (tests left out) to the
// packages under mc/checker it builds from, directly or not; packages
// with none are left out.
func checkerDeps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	found := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		for _, dep := range fields[1:] {
			if underChecker(dep) {
				found[fields[0]] = append(found[fields[0]], dep)
			}
		}
	}
	return found
}

func TestNoSpecPackageDependsOnTheChecker(t *testing.T) {
	found := checkerDeps(t, "github.com/ringcheck/mc/specs/...")
	for pkg, deps := range found {
		if !runTheChecker[pkg] {
			t.Errorf("%s builds from %s (go list -deps %s)", pkg, strings.Join(deps, ", "), pkg)
		}
	}
	// The check can fail: the kit that runs the checker is caught by it.
	if len(found["github.com/ringcheck/mc/specs/internal/spectest"]) == 0 {
		t.Error("specs/internal/spectest builds from nothing under mc/checker: this test no longer sees the checker")
	}
	// Every spec is under specs/, so the pattern covers them all.
	for _, e := range All() {
		if _, err := os.Stat(e.Name); err != nil {
			t.Errorf("spec %s has no package under specs/: %v", e.Name, err)
		}
	}
}

// checkerImports lists the imports of anything under mc/checker in the
// non-test Go files under root, as "file: import path".
func checkerImports(root string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && underChecker(p) {
				found = append(found, path+": "+p)
			}
		}
		return nil
	})
	return found, err
}

// The examples (examples/*, each a module of its own, which go list in
// this module does not reach) are specs written as users write them,
// against the same contract: none of their Go files imports anything
// under mc/checker. A program of theirs may still run mc's command line
// (package cli), which runs the checker for it.
func TestNoExampleImportsTheChecker(t *testing.T) {
	examples := filepath.Join("..", "examples")
	if _, err := os.Stat(examples); os.IsNotExist(err) {
		t.Skip("no examples/ yet")
	}
	found, err := checkerImports(examples)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s", f)
	}
}

func TestCheckerImportsFindsAnImportOfTheChecker(t *testing.T) {
	dir := t.TempDir()
	src := "package ex\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/ringcheck/mc/checker/liveness\"\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "ex.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ex_test.go"), []byte("package ex\n\nimport \"github.com/ringcheck/mc/checker\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := checkerImports(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "ex.go") + ": github.com/ringcheck/mc/checker/liveness"}
	if !slices.Equal(found, want) {
		t.Fatalf("found %q, want %q", found, want)
	}
}
