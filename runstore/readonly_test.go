package runstore

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readOnlyMount bind-mounts dir read-only on a new directory: read-only
// media, even to root. It skips the test without root or mount.
func readOnlyMount(t *testing.T, dir string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a read-only bind mount needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount: %v %s", err, out)
	}
	// Lazily: Badger refusing a store may leave a file of it open.
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot make the bind mount read-only: %v %s", err, out)
	}
	return mnt
}

// A store on read-only media was refused (its lock file, its closed-files
// list and Badger's own files are written on opening): opened ReadOnly it
// lists its checks, again and again, and its files are still verified.
func TestReadOnlyMediaAreListed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	for i := range 2 {
		if err := s.AddCheck(&Check{Key: key(t, 3+i, nil), Verdict: "pass", States: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro := readOnlyMount(t, dir)
	if s, err := Open(ro, Options{Holder: "mc test"}); err == nil {
		s.Close()
		t.Fatal("the store on a read-only mount opened to write: the test shows nothing")
	}
	for round := range 2 {
		s, err := Open(ro, Options{Holder: "mc test", ReadOnly: true})
		if err != nil {
			t.Fatalf("open %d: %v", round, err)
		}
		checks, err := s.Checks()
		if err != nil || len(checks) != 2 || checks[1].ID != 2 || checks[1].States != 2 {
			t.Fatalf("open %d: %+v %v", round, checks, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("close %d: %v", round, err)
		}
	}
	// Damage under the mount is still found by the closed-files list.
	sst, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(sst) == 0 {
		t.Fatal("the store has no table")
	}
	f, err := os.OpenFile(sst[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte{0xff}, 100)
	f.Close()
	_, err = Open(ro, Options{ReadOnly: true})
	var refused *Refused
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "changed after mc last closed the store") {
		t.Fatalf("a damaged table read-only: %v", err)
	}
}

// A store whose last session was killed is verified read-only as it is
// before a writable open (killed.go); Badger would have to cut its
// memtable log, which it cannot read-only: refused in one line saying so.
func TestReadOnlyKilledStoreIsVerifiedThenRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("writes until Badger makes a table")
	}
	dir := killedWithATable(t)
	ro := readOnlyMount(t, dir)
	_, err := Open(ro, Options{ReadOnly: true})
	var refused *Refused
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "not closed by its last session") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a killed store read-only: %v", err)
	}
	os.Remove(filepath.Join(dir, "MANIFEST"))
	if _, err = Open(ro, Options{ReadOnly: true}); !errors.As(err, &refused) || !strings.Contains(err.Error(), "MANIFEST") {
		t.Fatalf("a killed store without its MANIFEST read-only: %v", err)
	}
}

// A store whose last session was killed, on writable disk, was refused
// by an open to read ("copy it to writable storage"), though a writing
// command recovers it: the open to read recovers it as a writing open
// does, under the exclusive lock and after the same verification, and
// lists every check it holds; the store is then closed cleanly (CLOSED).
// Damage is still refused in one line, with no file changed; a store a
// live writer holds is in use, not recovered.
func TestKilledStoreOnWritableDiskIsRecoveredToRead(t *testing.T) {
	dir := killedWithChecks(t, 3)
	if _, err := os.Stat(filepath.Join(dir, closedFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the killed store has a %s: %v", closedFile, err)
	}
	damagedCopy := copyDir(t, dir)
	s, err := Open(dir, Options{Holder: "mc runs", ReadOnly: true})
	if err != nil {
		t.Fatalf("a killed store on writable disk, opened to read: %v", err)
	}
	checks, err := s.Checks()
	if err != nil || len(checks) != 3 || checks[0].ID != 1 || checks[2].ID != 3 {
		t.Fatalf("the recovered store: %+v %v", checks, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, closedFile)); err != nil {
		t.Fatalf("the recovered store was not closed cleanly: %v", err)
	}

	os.Remove(filepath.Join(damagedCopy, "MANIFEST"))
	mem, _ := filepath.Glob(filepath.Join(damagedCopy, "*.mem"))
	before := storeFiles(t, damagedCopy)
	_, err = Open(damagedCopy, Options{ReadOnly: true})
	var refused *Refused
	switch {
	case len(mem) == 0:
		t.Fatal("the killed store has no memtable log")
	case !errors.As(err, &refused) || !strings.Contains(err.Error(), "MANIFEST") || strings.Contains(err.Error(), "\n"):
		t.Fatalf("a killed store without its MANIFEST, opened to read: %v", err)
	case storeFiles(t, damagedCopy) != before:
		t.Fatalf("refused, and its files changed:\nbefore %s\nafter  %s", before, storeFiles(t, damagedCopy))
	}

	held := open(t, dir)
	defer held.Close()
	var inUse *InUse
	if _, err := Open(dir, Options{ReadOnly: true, Wait: 50 * time.Millisecond}); !errors.As(err, &inUse) {
		t.Fatalf("a store a live writer holds, opened to read: %v", err)
	}
}

// A killed session's store in a directory this process cannot write
// (here made read-only by its mode, which root ignores) is verified, then
// refused in one line as on read-only media, and nothing in it changes.
func TestKilledStoreInAReadOnlyDirectoryIsRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes a directory whatever its mode")
	}
	dir := killedWithChecks(t, 3)
	before := storeFiles(t, dir)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	_, err := Open(dir, Options{ReadOnly: true})
	var refused *Refused
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "not closed by its last session") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a killed store in a read-only directory: %v", err)
	}
	if after := storeFiles(t, dir); after != before {
		t.Fatalf("refused, and its files changed:\nbefore %s\nafter  %s", before, after)
	}
}
