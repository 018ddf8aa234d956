package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ringcheck/mc/internal/memlimit"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this very binary as mc, in a child process.
// The tests in this process take any --max-memory (memoryFloor), the
// children only what mc does. Neither it nor a child has a run store
// unless --db names one: go test
// runs in this package's directory, where the default .mc must never be
// made, and the suite fails if it was.
func TestMain(m *testing.M) {
	defaultDB = ""
	if os.Getenv("MC_TEST_RUN_MAIN") == "1" {
		code := Main()
		if file := os.Getenv("MC_TEST_PEAK_FILE"); file != "" {
			// The child's own peak (limitpeak_linux_test.go).
			if err := os.WriteFile(file, []byte(strconv.FormatInt(memlimit.Peak(), 10)), 0o600); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = exitInternal
			}
		}
		os.Exit(code)
	}
	memoryFloor = func() int64 { return 0 }
	code := m.Run()
	if _, err := os.Stat(".mc"); err == nil {
		fmt.Fprintln(os.Stderr, "a test made the run store .mc in cli: pass --db with a temporary directory")
		code = 1
	}
	os.Exit(code)
}

// needsUnixSignals skips a test that stops mc with a unix signal (SIGHUP,
// or SIGKILL and then reads from the wait status that the signal ended
// it): windows has no SIGHUP, and its wait status never says a signal
// ended a process.
func needsUnixSignals(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs unix signals")
	}
}

// A run killed with SIGKILL and resumed from its last checkpoint reports the
// same final counts and verdict as an uninterrupted one (1,243,826 states,
// 6,340,147 transitions, depth 55 for Chang–Roberts at n = 10).
func TestKilledRunResumes(t *testing.T) {
	needsUnixSignals(t)
	for _, store := range []string{"memory", "disk"} {
		dir := t.TempDir()
		ckpt := filepath.Join(dir, "ckpt")
		args := []string{"check", "changroberts", "--n", "10", "--safety", "--checkpoint", ckpt, "--checkpoint-every", "100ms"}
		if store == "disk" {
			args = append(args, "--store", "disk", "--dir", filepath.Join(dir, "store"))
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "MC_TEST_RUN_MAIN=1")
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
				t.Fatalf("%s: no checkpoint appeared", store)
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("%s: the run ended (%v) before it could be killed", store, err)
		}
		resume := []string{"check", "--resume", ckpt, "--json", "--safety"}
		if store == "disk" {
			resume = append(resume, "--store", "disk", "--dir", filepath.Join(dir, "store"))
		}
		code, out, errs := mc(t, context.Background(), resume...)
		var r struct {
			Verdict                    string
			States, Transitions, Depth int64
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass {
			t.Fatalf("%s: resume exit %d, %v\n%s%s", store, code, err, out, errs)
		}
		if r.Verdict != "pass" || r.States != 1243826 || r.Transitions != 6340147 || r.Depth != 55 {
			t.Fatalf("%s: resumed run %+v", store, r)
		}
	}
}
