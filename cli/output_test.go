package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// fullDisk is a stdout on a full disk: it takes the first limit bytes,
// then refuses with ENOSPC.
type fullDisk struct {
	limit int
	n     int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if d.n+len(p) > d.limit {
		k := max(d.limit-d.n, 0)
		d.n += k
		return k, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
	}
	d.n += len(p)
	return len(p), nil
}

// Output that cannot be written is incomplete, exit 3, for every command
// and every format, whatever the verdict: mc check, list, trace and sweep
// exited 0 on /dev/full, --json 4 and --format svg 2.
func TestOutputThatCannotBeWrittenIsIncomplete(t *testing.T) {
	trace := traceFile(t)
	for _, args := range [][]string{
		{"check", "changroberts", "--n", "4"},
		{"check", "changroberts", "--n", "4", "--json"},
		readmeRun,
		{"list"},
		{"trace", trace},
		{"trace", trace, "--format", "svg"},
		{"trace", trace, "--format", "dot"},
		{"trace", trace, "--replay"},
		{"sweep", "changroberts", "--n", "3", "--no-db"},
		{"sweep", "changroberts", "--n", "3", "--no-db", "--json"},
		{"simulate", "changroberts", "--n", "4", "--runs", "5"},
		{"version"},
		{"help"},
		{"help", "check"},
	} {
		for _, limit := range []int{0, 10} {
			var errs bytes.Buffer
			code := Run(context.Background(), args, &fullDisk{limit: limit}, &errs)
			if code != exitIncomplete || !strings.HasSuffix(errs.String(), "mc: the output is incomplete: write /dev/stdout: no space left on device\n") {
				t.Errorf("mc %s with room for %d bytes: exit %d, stderr:\n%s", strings.Join(args, " "), limit, code, errs.String())
			}
		}
	}
	// A usage error stays one: it was the first thing wrong.
	var errs bytes.Buffer
	if code := Run(context.Background(), []string{"check", "nosuchspec"}, &fullDisk{}, &errs); code != exitUsage {
		t.Errorf("a usage error with a full stdout: exit %d, stderr %q", code, errs.String())
	}
}

// The same through the real /dev/full, as a shell redirection gives it.
func TestDevFullIsIncomplete(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	cmd := exec.Command(os.Args[0], "check", "changroberts", "--n", "4")
	cmd.Env = append(os.Environ(), "MC_TEST_RUN_MAIN=1")
	cmd.Stdout = full
	var errs bytes.Buffer
	cmd.Stderr = &errs
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitIncomplete || !strings.Contains(errs.String(), "no space left on device") {
		t.Fatalf("mc check > /dev/full: %v, stderr %q", err, errs.String())
	}
}
