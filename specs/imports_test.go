package specs

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// goListDeps is `go list -deps pattern`: the packages that pattern's
// packages build from, themselves included, one import path each (tests
// left out).
func goListDeps(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

// A spec defines a system; exploring it is the checker's business, and
// only the registry binds the two (Of). So no spec package imports
// mc/checker, directly or not, and a spec can be read, built and tested
// against model's contract alone.
func TestNoSpecImportsChecker(t *testing.T) {
	for _, e := range All() {
		if slices.Contains(goListDeps(t, "github.com/ringcheck/mc/specs/"+e.Name), "github.com/ringcheck/mc/checker") {
			t.Errorf("github.com/ringcheck/mc/specs/%s imports mc/checker (go list -deps mc/specs/%s)", e.Name, e.Name)
		}
	}
	if slices.Contains(goListDeps(t, "github.com/ringcheck/mc/specs/specdef"), "github.com/ringcheck/mc/checker") {
		t.Error("github.com/ringcheck/mc/specs/specdef imports mc/checker")
	}
}
