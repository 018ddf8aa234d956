package specs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/mutants.md has a section for every registered spec: the section
// each mutation suite checks its table against (spectest.Suite), or, for
// vlt and hp, the hand-kept one.
func TestEverySpecHasAMutantsSection(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "mutants.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range All() {
		found := false
		for _, line := range strings.Split(string(b), "\n") {
			rest, ok := strings.CutPrefix(line, "## "+e.Name)
			if ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, ",")) {
				found = true
			}
		}
		if !found {
			t.Errorf("docs/mutants.md has no section for %s", e.Name)
		}
	}
}
