//go:build !race

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckMemoryLimitHolds: --max-memory stops mc-beam check, run as a
// child, incomplete (exit 3) in one line, its peak resident set (VmHWM,
// the kernel's count; the Prism workers run in the process) within 10 % of
// the limit. It had no limit (issue #36 item 12). The peak is the child's
// VmHWM, not rusage's maxrss, which carries this process's peak into the
// child across the vfork and exec that start it.
func TestCheckMemoryLimitHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mc-beam up to its memory limit")
	}
	peakWithin(t, "--max-memory 64MiB", nil, "--max-memory", "64MiB")
}

// Without --max-memory, mc-beam check keeps to GOMEMLIMIT if it is set,
// else 7/8 of the memory available (memlimit.Default), as mc check does:
// it had no limit unless given one, and a run that outgrew the machine was
// ended by the OOM killer.
func TestCheckKeepsToTheDefaultLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mc-beam up to its memory limit")
	}
	peakWithin(t, "GOMEMLIMIT=64MiB", []string{"GOMEMLIMIT=64MiB"})
}

// peakWithin runs mc-beam check changroberts --n 8 as a child, with env
// and args added, and fails unless it stops incomplete (exit 3) at a
// 64 MiB memory limit in one line, its peak resident set within 10 % of
// that.
func peakWithin(t *testing.T, name string, env []string, args ...string) {
	t.Helper()
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], append([]string{"check", "changroberts", "--n", "8", "--safety", "--shards", "2"}, args...)...)
	cmd.Env = append(append(os.Environ(), "MC_BEAM_TEST_RUN_MAIN=1", "MC_BEAM_TEST_PEAK_FILE="+peakFile), env...)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(errs.String()), "\n") {
		if !strings.HasPrefix(l, "time=") { // Beam's own log lines
			lines = append(lines, l)
		}
	}
	if code := cmd.ProcessState.ExitCode(); code != exitIncomplete || out.Len() != 0 || len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "mc-beam check: incomplete: memory limit 64.0 MiB reached, expanding level ") {
		t.Fatalf("%s: exit %d, stdout %q, stderr %q", name, code, out.String(), errs.String())
	}
	data, err := os.ReadFile(peakFile)
	if err != nil {
		t.Fatal(err)
	}
	peak, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		t.Fatalf("%s: the child's peak %q", name, data)
	}
	kib := peak >> 10
	t.Logf("%s: peak resident set %.1f MiB, limit 64 MiB", name, float64(kib)/1024)
	if kib <= 0 || kib > 64<<10+64<<10/10 {
		t.Errorf("%s: peak resident set %d KiB, limit 64 MiB", name, kib)
	}
}
