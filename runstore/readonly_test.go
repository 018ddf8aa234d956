package runstore

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
