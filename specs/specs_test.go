package specs

import (
	"context"
	"testing"

	"mc/checker"
	"mc/model"
)

// Every registered spec builds on its defaults, passes there, and names its
// properties uniquely; an unknown spec is refused.
func TestEverySpecPassesOnItsDefaults(t *testing.T) {
	for _, e := range All() {
		tg, err := e.Build(model.Params{N: e.DefaultN, IDs: model.DescendingIDs(e.DefaultN)})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		seen := map[string]bool{}
		for _, p := range tg.Props() {
			if seen[p.Name] || p.Ref == "" {
				t.Errorf("%s: property %q repeated or without a seed reference", e.Name, p.Name)
			}
			seen[p.Name] = true
		}
		if r := tg.Check(context.Background(), checker.Options{Fair: e.Fair}); r.Verdict != checker.Pass {
			t.Errorf("%s on its defaults: %s", e.Name, r.Verdict)
		}
	}
	if _, err := Lookup("nosuch"); err == nil {
		t.Fatal("unknown spec accepted")
	}
}
