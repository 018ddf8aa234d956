package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Prism's loopback runner leaves an empty beamloopbackworker-* file in the
// temporary directory for every job; mc-beam runs in a directory of its
// own and removes it, so that a check leaves the temporary directory as it
// found it (the tests had left tens of thousands of such files in /tmp).
func TestCheckLeavesNoTemporaryFiles(t *testing.T) {
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "check", "changroberts", "--n", "4", "--safety", "--shards", "2")
	cmd.Env = append(os.Environ(), "MC_BEAM_TEST_RUN_MAIN=1", "TMPDIR="+tmp, "TMP="+tmp)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: stdout %q, stderr %q", err, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), ": pass\n") {
		t.Fatalf("stdout %q", out.String())
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in the temporary directory: %s", e.Name())
	}
}
