package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TLC's -recover without the original -fp reported wrong state counts and
// no error (tlaplus/tlaplus#1444). mc's checkpoint names the run (spec,
// parameters, options), its store, the build of mc and of the spec, and
// the fingerprint function: a resume that contradicts any of them is
// refused with exit 2, and --resume (with or without agreeing flags)
// rebuilds the original run and ends with the uninterrupted run's counts.
func TestResumeIsTheOriginalRunOrRefused(t *testing.T) {
	ctx := context.Background()
	_, want, _ := mc(t, ctx, "check", "changroberts", "--n", "6", "--workers", "1")
	want = want[strings.Index(want, "distinct states"):]
	want = want[:strings.Index(want, "\n")]
	dir := filepath.Join(t.TempDir(), "ckpt")
	cctx, cancel := context.WithCancel(ctx)
	cancel() // the run saves level 0's checkpoint, then stops
	if code, out, errs := mc(t, cctx, "check", "changroberts", "--n", "6", "--checkpoint", dir, "--checkpoint-every", "0"); code != exitIncomplete {
		t.Fatalf("interrupted run: exit %d\n%s%s", code, out, errs)
	}
	for _, c := range []struct {
		args  []string
		lines int
	}{
		{[]string{"check", "changroberts", "--n", "5", "--resume", dir}, 1},
		{[]string{"check", "changroberts", "--n", "6", "--chan", "bag", "--resume", dir}, 1},
		{[]string{"check", "lelann", "--n", "6", "--resume", dir}, 1},
		{[]string{"check", "changroberts", "--n", "6", "--store", "disk", "--dir", t.TempDir(), "--resume", dir}, 1},
		{[]string{"check", "--n", "7", "--resume", dir}, 1},
		{[]string{"check", "--resume", t.TempDir()}, 1},
	} {
		code, out, errs := mc(t, ctx, c.args...)
		if code != exitUsage || strings.Count(errs, "\n") != c.lines || strings.Count(errs, "mc check: ") != c.lines || strings.Contains(out, "verdict") {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, out, errs)
		}
	}
	code, out, errs := mc(t, ctx, "check", "--resume", dir, "--n", "6")
	if code != exitPass || !strings.Contains(out, want) {
		t.Fatalf("--resume alone: exit %d, want %q in\n%s%s", code, want, out, errs)
	}
	path := filepath.Join(dir, "checkpoint")
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0x40
	os.WriteFile(path, data, 0o644)
	code, out, errs = mc(t, ctx, "check", "changroberts", "--n", "6", "--resume", dir)
	if code != exitUsage || !strings.Contains(errs, "corrupted") || strings.Contains(out, "verdict") {
		t.Fatalf("corrupted checkpoint: exit %d\n%s%s", code, out, errs)
	}
}

// --all-ids reports a representative's verdict for its whole class, which
// is sound only when the run is the same up to rotating (and, for vlt,
// reflecting) the ring: every flag that fixes a process is refused.
// (checker's TestAllIDsClassMembersAgree shows that every registered
// property is symmetric: each class member's figures and verdicts equal
// its representative's.)
func TestAllIDsRefusesWhatBreaksTheSymmetry(t *testing.T) {
	for _, args := range [][]string{
		{"check", "changroberts", "--all-ids", "--initiators", "0"},
		{"check", "changroberts", "--all-ids", "--ids", "1,2,3"},
		{"check", "vlt", "--all-ids", "--n", "4", "--orientation", "0110"},
		{"check", "changroberts", "--all-ids", "--checkpoint", t.TempDir()},
		{"check", "changroberts", "--all-ids", "--trace-out", "t.json"},
	} {
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitUsage || strings.Count(errs, "\n") != 1 || strings.Contains(out, "verdict") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
