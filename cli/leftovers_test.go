package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
