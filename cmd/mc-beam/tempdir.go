package main

import (
	"context"
	"io"
	"os"
	"runtime"
)

// runInOwnTempDir is run with the process's temporary directory pointed
// at a new directory of its own, removed when the run ends. Beam's
// loopback runner, Prism's, leaves an empty placeholder file
// (beamloopbackworker-*) in the temporary directory for every job it runs
// and never removes it (a TODO in its runnerlib/execute.go): a sweep runs
// a job per class, a check one per level, and they piled up by the ten
// thousand. A run stopped by a limit or an interrupt leaves the directory
// alone: its job may still be running in this process until it exits,
// and must not find its files gone.
func runInOwnTempDir(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, err := os.MkdirTemp("", "mc-beam-tmp-")
	if err != nil { // the system's stays: the placeholders do too, the run goes on
		return run(ctx, args, stdout, stderr)
	}
	variable := "TMPDIR"
	if runtime.GOOS == "windows" {
		variable = "TMP"
	}
	old, had := os.LookupEnv(variable)
	os.Setenv(variable, dir)
	code := run(ctx, args, stdout, stderr)
	if code == exitIncomplete || ctx.Err() != nil {
		return code
	}
	if had {
		os.Setenv(variable, old)
	} else {
		os.Unsetenv(variable)
	}
	os.RemoveAll(dir)
	return code
}
