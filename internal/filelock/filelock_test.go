package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Each open file holds its own lock, as two processes would: a second
// file on the same name is refused until the first is closed.
func TestSecondFileIsRefusedUntilTheFirstCloses(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	first, second := open(), open()
	if err := TryLock(first); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	if err := TryLock(second); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock while the first is held: %v, want ErrLocked", err)
	}
	// The holder's own content stays readable to others (runstore names
	// its holder there).
	if _, err := first.WriteAt([]byte("holder"), 0); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := second.ReadAt(buf, 0); err != nil || string(buf) != "holder" {
		t.Fatalf("reading the locked file: %q, %v", buf, err)
	}
	first.Close()
	if err := TryLock(second); err != nil {
		t.Fatalf("lock after the holder closed: %v", err)
	}
}

// A directory's lock refuses a second holder, and once released leaves
// the directory as it found it, empty, so that its owner can remove it.
func TestDirLockRefusesASecondAndLeavesTheDirectoryEmpty(t *testing.T) {
	dir := t.TempDir()
	first, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatalf("removing the directory after its lock is released: %v", err)
	}
	if _, err := LockDir(dir); err == nil {
		t.Fatal("locked a directory that does not exist")
	}
}
