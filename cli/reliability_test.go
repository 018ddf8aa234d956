package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory or file the run cannot write is the user's mistake: one line,
// exit 2, before the run starts; with the default --checkpoint-every, a bad
// checkpoint directory was not even noticed on a short run.
func TestUserPathErrorsAreOneLineBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("mine"), 0o644)
	for _, c := range []struct {
		args []string
		why  string
	}{
		{[]string{"--store", "disk", "--dir", "/proc/nope"}, "--dir /proc/nope: cannot create the directory"},
		{[]string{"--store", "disk", "--dir", file}, "a file, not a directory"},
		{[]string{"--store", "disk", "--dir", filepath.Join(file, "sub")}, "a file is in the way"},
		{[]string{"--checkpoint", "/proc/nope"}, "--checkpoint /proc/nope: cannot create the directory"},
		{[]string{"--checkpoint", file}, "a file, not a directory"},
		{[]string{"--resume", file}, "a file, not a directory"},
		{[]string{"--resume", filepath.Join(dir, "none")}, "no such file or directory"},
		{[]string{"--trace-out", dir}, "is a directory"},
		{[]string{"--trace-out", "/proc/nope/t.json"}, "no such file or directory"},
		{[]string{"--keep-dir"}, "--keep-dir goes with --store disk"},
	} {
		args := append([]string{"check", "changroberts", "--n", "4"}, c.args...)
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.why) {
			t.Errorf("%v: exit %d, want 2 and one line naming %q\n%s%s", c.args, code, c.why, out, errs)
		}
	}
	if got, _ := os.ReadFile(file); string(got) != "mine" {
		t.Fatalf("the user's file now holds %q", got)
	}
}

// resumeLine matches the command an interrupted run prints to resume it.
var resumeLine = regexp.MustCompile(`resume with:\n  mc (check .*)\n`)

// An interrupted run says where its checkpoint is and how to resume it; the
// command it prints, run from another working directory (the paths given
// were relative), ends with the uninterrupted run's counts and removes the
// working files. A run stopped before its first checkpoint says it saved
// none.
func TestInterruptedRunNamesItsCheckpointAndResumes(t *testing.T) {
	_, want, _ := mc(t, context.Background(), "check", "changroberts", "--n", "6", "--workers", "1")
	want = want[strings.Index(want, "distinct states"):]
	want = want[:strings.Index(want, "\n")]
	first := t.TempDir()
	t.Chdir(first)
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, errs := mc(t, stopped, "check", "changroberts", "--n", "6", "--store", "disk", "--dir", "store", "--checkpoint", "ckpt", "--checkpoint-every", "0")
	m := resumeLine.FindStringSubmatch(out)
	if code != exitIncomplete || m == nil || !strings.Contains(out, "checkpoint: level 0, 1 states, saved in "+filepath.Join(first, "ckpt")) ||
		!strings.Contains(out, "working files kept in "+filepath.Join(first, "store", "mc-changroberts-")) {
		t.Fatalf("interrupted run: exit %d\n%s%s", code, out, errs)
	}
	t.Chdir(t.TempDir())
	code, out, errs = mc(t, context.Background(), strings.Fields(m[1])...)
	if code != exitPass || !strings.Contains(out, want) || strings.Contains(out, "working files kept") {
		t.Fatalf("%s: exit %d, want %q\n%s%s", m[1], code, want, out, errs)
	}
	if left, _ := os.ReadDir(filepath.Join(first, "store")); len(left) != 0 {
		t.Fatalf("the finished run left %d entries in --dir", len(left))
	}

	code, out, errs = mc(t, stopped, "check", "changroberts", "--n", "6", "--checkpoint", "ckpt2")
	if code != exitIncomplete || !strings.Contains(out, "checkpoint: this run saved none (the first is due 10s after its start)") {
		t.Fatalf("run interrupted before its first checkpoint: exit %d\n%s%s", code, out, errs)
	}
}

// SIGHUP (the terminal closed) stops a run as Ctrl-C does, with the summary,
// exit 3 and the checkpoint to resume from, instead of the shell's 129.
func TestHangupStopsWithASummary(t *testing.T) {
	needsUnixSignals(t)
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	cmd := exec.Command(os.Args[0], "check", "changroberts", "--n", "11", "--safety", "--checkpoint", ckpt, "--checkpoint-every", "0")
	cmd.Env = append(os.Environ(), "MC_TEST_RUN_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(ckpt, "checkpoint")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no checkpoint appeared")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitIncomplete || !strings.Contains(out.String(), "verdict: incomplete (interrupted)") || !resumeLine.MatchString(out.String()) {
		t.Fatalf("after SIGHUP: exit %d\n%s", code, out.String())
	}
}

// A full disk is a fault of the machine, not a bug in mc: exit 3 with the
// summary, the last checkpoint and the command to resume, which, once the
// disk has room, ends with the uninterrupted run's counts. It needs root,
// to mount a tmpfs of 1 MiB; checker.TestFullDiskStopsTheRunIncomplete
// makes the disk full without it.
func TestFullTmpfsStopsIncompleteAndResumes(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	_, want, _ := mc(t, context.Background(), "check", "changroberts", "--n", "9", "--safety")
	want = want[strings.Index(want, "distinct states"):]
	want = want[:strings.Index(want, "\n")]
	code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", "9", "--safety", "--store", "disk",
		"--dir", filepath.Join(mnt, "store"), "--checkpoint", filepath.Join(mnt, "ckpt"), "--checkpoint-every", "0")
	m := resumeLine.FindStringSubmatch(out)
	if code != exitIncomplete || m == nil || !strings.Contains(out, "no space left on device") || strings.Contains(errs, "bug in mc") {
		t.Fatalf("run on a full tmpfs: exit %d\n%s%s", code, out, errs)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=64m", mnt).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	code, out, errs = mc(t, context.Background(), strings.Fields(m[1])...)
	if code != exitPass || !strings.Contains(out, want) {
		t.Fatalf("%s: exit %d, want %q\n%s%s", m[1], code, want, out, errs)
	}
}

// The same in a default run, liveness included: its graph, on the full
// disk too, failed as a bug in mc (exit 4, no summary). A tmpfs of 1 MiB
// holds neither the search's files nor the graph's; checker's
// TestFullDiskInTheLivenessGraphStopsTheRunIncomplete fills the disk in
// the graph alone.
func TestFullTmpfsWithLivenessIsIncomplete(t *testing.T) {
	mnt := smallTmpfs(t)
	if out, err := exec.Command("mount", "-o", "remount,size=1m", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot resize the tmpfs: %v %s", err, out)
	}
	code, out, errs := mc(t, context.Background(), "check", "suzukikasami", "--n", "3", "--bound", "2", "--workers", "1",
		"--store", "disk", "--dir", filepath.Join(mnt, "store"))
	if code != exitIncomplete || !strings.Contains(out, "verdict: incomplete (I/O error: ") || !strings.Contains(out, "no space left on device") ||
		!strings.Contains(out, "distinct states") || strings.Contains(errs, "bug in mc") {
		t.Fatalf("run on a full tmpfs: exit %d\n%s%s", code, out, errs)
	}
}
