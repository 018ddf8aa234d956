package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// smallTmpfs mounts a tmpfs of 256 KiB; it skips the test where mounting
// is not permitted.
func smallTmpfs(t *testing.T) string {
	t.Helper()
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	return mnt
}

// fill writes to dir/filler until its file system is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); errors.Is(err, syscall.ENOSPC) {
			return
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// An output file that cannot be written (a full disk) is reported after
// the result, which is printed whole, with exit 3 whatever the verdict:
// --trace-out gave exit 2 with no verdict and a cut file, mc simulate exit
// 4 and an empty file, mc sweep --out exit 4 and a witness trace cut at
// 16 KiB; --junit is written alike. A file that was there is left as it
// was, and nothing is cut.
func TestOutputFilesOnAFullDisk(t *testing.T) {
	mnt := smallTmpfs(t)
	old := filepath.Join(mnt, "old.json")
	os.WriteFile(old, []byte("the previous trace"), 0o644)
	fill(t, mnt)
	for _, c := range []struct {
		args   []string
		stdout string
		flag   string
	}{
		{[]string{"check", "changroberts", "--n", "4", "--no-db", "--trace-out", old}, "verdict: pass", "--trace-out"},
		{[]string{"check", "changroberts", "--variant", "raynal-literal", "--ids", "1,3,2,4", "--initiators", "0", "--no-db", "--trace-out", filepath.Join(mnt, "fail.json")}, "verdict: fail", "--trace-out"},
		{[]string{"simulate", "changroberts", "--variant", "raynal-literal", "--ids", "1,3,2,4", "--initiators", "0", "--runs", "50", "--seed", "1", "--trace-out", filepath.Join(mnt, "sim.json")}, "breaks election-complete", "--trace-out"},
		{[]string{"sweep", "changroberts", "--n", "3..4", "--no-db", "--out", filepath.Join(mnt, "out")}, "changroberts", "--out"},
		{[]string{"check", "changroberts", "--n", "4", "--no-db", "--junit", filepath.Join(mnt, "junit.xml")}, "verdict: pass", "--junit"},
	} {
		code, out, errs := mc(t, context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		last := lines[len(lines)-1]
		if code != exitIncomplete || !strings.Contains(out, c.stdout) || !strings.Contains(last, c.flag) || !strings.Contains(last, "no space left on device") || strings.Contains(errs, "bug in mc") {
			t.Errorf("mc %s: exit %d\n%s%s", strings.Join(c.args, " "), code, out, errs)
		}
	}
	if got, _ := os.ReadFile(old); string(got) != "the previous trace" {
		t.Fatalf("the previous trace file now holds %q", got)
	}
	filepath.Walk(mnt, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && path != old && filepath.Base(path) != "filler" {
			t.Errorf("%s was left on the full disk (%d bytes)", path, info.Size())
		}
		return nil
	})
}
