package sweep

import (
	"os/exec"
	"strings"
	"testing"
)

// The sweep reads a spec through Spec and its profiles (specdef.Profile),
// never a spec package: a spec's profiles live with the spec, and sweep
// imports nothing under mc/specs but the vocabulary package specdef.
func TestSweepImportsNoSpec(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/ringcheck/mc/sweep").Output()
	if err != nil {
		t.Fatalf("go list -deps .../mc/sweep: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if (p == "github.com/ringcheck/mc/specs" || strings.HasPrefix(p, "github.com/ringcheck/mc/specs/")) && p != "github.com/ringcheck/mc/specs/specdef" {
			t.Errorf("github.com/ringcheck/mc/sweep imports %s (go list -deps .../mc/sweep)", p)
		}
	}
}
