package sweepout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/internal/filelock"
)

// While another process writes in a directory (it holds its lock),
// WriteFiles writes nothing there and says so; once it is released, the
// files are written, their directories made.
func TestWriteFilesRefusesALockedDirectory(t *testing.T) {
	dir := t.TempDir()
	files := []File{{Path: "t.json", Data: []byte("{}\n")}, {Path: "traces/t-n3-worst.json", Data: []byte("run\n")}}
	other, err := filelock.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, files); err == nil || !strings.Contains(err.Error(), "another mc process is writing there") {
		t.Fatalf("WriteFiles into a locked directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.json")); !os.IsNotExist(err) {
		t.Fatalf("a file was written under another's lock: %v", err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path))); err != nil || string(got) != string(f.Data) {
			t.Errorf("%s holds %q (%v), want %q", f.Path, got, err, f.Data)
		}
	}
}
