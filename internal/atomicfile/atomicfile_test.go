package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Write replaces the file whole and leaves no temporary file; a symbolic
// link at the file's name is replaced, and the file it pointed to is left
// as it was.
func TestWriteReplacesAndNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "second" {
		t.Fatalf("the file holds %q", got)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("the user's"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(victim, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteFile(link, []byte("mc's")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "the user's" {
		t.Fatalf("the link's target now holds %q", got)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink != 0 {
		t.Fatal("the link is still a link")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Fatalf("files left: %v", entries)
	}
}

// The temporary file is created exclusively: a link, or any file, at its
// name is refused, never written through.
func TestCreateRefusesWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("the user's"), 0o644)
	tmp := filepath.Join(dir, ".out.0123456789abcdef.mc-tmp")
	if err := os.Symlink(victim, tmp); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if f, err := Create(tmp); err == nil {
		f.Close()
		t.Fatal("created a temporary file over a link")
	}
	if got, _ := os.ReadFile(victim); string(got) != "the user's" {
		t.Fatalf("the link's target now holds %q", got)
	}
}

// A write that fails, by fill or by a full disk, leaves the file as it was
// and no temporary file.
func TestFailedWriteLeavesTheFileAsItWas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	os.WriteFile(path, []byte("before"), 0o644)
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { w.Write([]byte("half")); return boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		create := Create
		defer func() { Create = create }()
		Create = func(tmp string) (*os.File, error) {
			f, err := create(tmp) // the name is taken, as in a real write
			if err != nil {
				return nil, err
			}
			f.Close()
			return os.OpenFile("/dev/full", os.O_RDWR, 0)
		}
		if err := WriteFile(path, bytes.Repeat([]byte("x"), 1<<20)); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("on /dev/full: %v", err)
		}
		Create = create
	}
	if got, _ := os.ReadFile(path); string(got) != "before" {
		t.Fatalf("the file holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
}

// On a real full file system (a tmpfs of 64 KiB; needs root, skipped
// otherwise), the write fails with ENOSPC and the file is as it was.
func TestFullTmpfsLeavesTheFileAsItWas(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).Run(); err != nil {
		t.Skip("cannot mount a tmpfs:", err)
	}
	defer exec.Command("umount", dir).Run()
	path := filepath.Join(dir, "out")
	if err := WriteFile(path, []byte("before")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, bytes.Repeat([]byte("x"), 1<<20)); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a 1 MiB write to a 64 KiB tmpfs: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "before" {
		t.Fatalf("the file holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
}

// RemoveStale removes the temporary files a killed writer left for one
// name, and nothing else: not another name's, not a link, not the file.
func TestRemoveStaleRemovesOnlyTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	keep := []string{"checkpoint", ".checkpoint.0123.mc-tmp", ".other.0123456789abcdef.mc-tmp", "checkpoint.tmp"}
	for _, name := range append(keep, ".checkpoint.0123456789abcdef.mc-tmp") {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	link := ".checkpoint.fedcba9876543210.mc-tmp"
	os.Symlink("checkpoint", filepath.Join(dir, link))
	keep = append(keep, link)
	if err := RemoveStale(dir, "checkpoint"); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if len(left) != len(keep) {
		t.Fatalf("left %v, want %v", left, keep)
	}
}

// CanCreate makes a file in a directory that can be written, and leaves
// nothing there; it says no for a directory that cannot be (here, one
// that is missing, or whose mode forbids it to a user other than root).
func TestCanCreateLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if !CanCreate(dir, "CLOSED") {
		t.Fatal("a temporary directory cannot be written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("CanCreate left %v", entries)
	}
	if CanCreate(filepath.Join(dir, "missing"), "CLOSED") {
		t.Fatal("a missing directory can be written")
	}
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o755)
		if CanCreate(dir, "CLOSED") {
			t.Fatal("a directory of mode 0555 can be written")
		}
	}
}
