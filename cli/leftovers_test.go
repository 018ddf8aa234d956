package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/sweep"
)

// plantLeftovers puts in dir, for each of ours (a path in dir, with
// slashes), the temporary file a writer killed while writing it leaves
// (atomicfile), and returns the files it plants that are not mc's: one
// named as a temporary file of another name, one ordinary. A writer into
// dir must remove the first and leave the others as they are.
func plantLeftovers(t *testing.T, dir string, ours ...string) map[string]string {
	t.Helper()
	foreign := map[string]string{".notes.0123456789abcdef.mc-tmp": "not mc's", "notes.txt": "the user's"}
	planted := map[string]string{}
	for _, p := range ours {
		d, name := filepath.Split(filepath.FromSlash(p))
		planted[filepath.Join(d, "."+name+".0123456789abcdef.mc-tmp")] = "cut"
	}
	for name, data := range foreign {
		planted[name] = data
	}
	for name, data := range planted {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return foreign
}

// A sampled sweep killed while writing its files and run again leaves
// --out as an uninterrupted one does: the temporary files of its own
// files gone, the files that are not its own as they were.
func TestSampledSweepRemovesTheTemporaryFilesOfAKilledOne(t *testing.T) {
	ctx := context.Background()
	args := []string{"sweep", "changroberts", "--variant", "all-initiate", "--n", "16,32", "--sample", "5", "--seed", "3", "--workers", "1", "--out"}
	clean := t.TempDir()
	if code, _, errs := mc(t, ctx, append(args, clean)...); code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := readTree(t, clean)
	if len(want) != 3 {
		t.Fatalf("an uninterrupted sampled sweep wrote %d files, want 3: %v", len(want), want)
	}
	dir := t.TempDir()
	var ours []string
	for name := range want {
		ours = append(ours, filepath.ToSlash(name))
	}
	for name, data := range plantLeftovers(t, dir, ours...) {
		want[name] = data
	}
	if code, _, errs := mc(t, ctx, append(args, dir)...); code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sameTree(t, "the sampled sweep run again after a kill", readTree(t, dir), want)
}

// committedTables are results/'s tables, in the order of specs.Sweeps, as
// mc ci reads them.
func committedTables(t *testing.T) []*sweep.Table {
	t.Helper()
	var tables []*sweep.Table
	for _, s := range specs.Sweeps() {
		data, err := os.ReadFile(filepath.Join("..", "results", s.Profile.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var tab sweep.Table
		if err := json.Unmarshal(data, &tab); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, &tab)
	}
	return tables
}

// mc sweep all killed while writing README.md or worst.svg and run again
// leaves them as an uninterrupted one does (results/'s own, rendered from
// the committed tables), the temporary files of the killed one gone and
// the files that are not mc's as they were.
func TestSweepAllIndexRemovesTheTemporaryFilesOfAKilledOne(t *testing.T) {
	dir := t.TempDir()
	want := map[string]string{}
	for _, name := range []string{"README.md", "worst.svg"} {
		data, err := os.ReadFile(filepath.Join("..", "results", name))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = string(data)
	}
	for name, data := range plantLeftovers(t, dir, "README.md", "worst.svg") {
		want[name] = data
	}
	if err := writeIndex(dir, committedTables(t)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "results/ index written again after a kill", readTree(t, dir), want)
}
