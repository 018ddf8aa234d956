package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/mc/checker"
)

var readmeRun = []string{"check", "changroberts", "--variant", "raynal-literal", "--ids", "3,1,4,2", "--initiators", "0"}

// traceFile runs the README's check with --trace-out and returns the file.
func traceFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.json")
	code, out, errs := mc(t, context.Background(), append(readmeRun, "--trace-out", path)...)
	if code != exitFail || !strings.Contains(out, "verdict: fail") || !strings.Contains(errs, "wrote the counterexample to election-complete (3 steps)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	return path
}

func TestTraceTextShowsEachStepsChanges(t *testing.T) {
	path := traceFile(t)
	code, out, _ := mc(t, context.Background(), "trace", path)
	if code != exitPass {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	step3 := out[strings.Index(out, "3. recv p2 ⟨elect 3⟩"):]
	for _, want := range []string{"deadlock", "received ⟨elect 3⟩ on p1→p2", "p2.in = []", "no action is enabled"} {
		if !strings.Contains(step3, want) {
			t.Fatalf("step 3 block lacks %q:\n%s", want, step3)
		}
	}
	if strings.Contains(step3, "p0.participant") || strings.Contains(out, "\033[") {
		t.Fatalf("step 3 lists an unchanged variable, or colours a non-terminal:\n%s", out)
	}
	_, coloured, _ := mc(t, context.Background(), "trace", path, "--color", "always")
	if !strings.Contains(coloured, ansiChanged+"p2.in"+ansiReset) {
		t.Fatalf("--color always does not highlight the changed variable:\n%q", coloured)
	}
}

func TestTraceReplayExitsZeroOnlyWhenTheFailureIsStillReached(t *testing.T) {
	path := traceFile(t)
	code, out, _ := mc(t, context.Background(), "trace", path, "--replay")
	if code != exitPass || !strings.Contains(out, "still reaches the recorded state") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The same run against the canonical rule no longer deadlocks.
	edited := filepath.Join(t.TempDir(), "canonical.json")
	if err := os.WriteFile(edited, bytes.Replace(data, []byte(`"variant": "raynal-literal"`), []byte(`"variant": "canonical"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = mc(t, context.Background(), "trace", edited, "--replay")
	if code != exitFail || !strings.Contains(out, "no longer matches: step 3 (recv p2 ⟨elect 3⟩)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestTraceSVGAndDot(t *testing.T) {
	path := traceFile(t)
	code, out, _ := mc(t, context.Background(), "trace", path, "--format", "svg")
	if code != exitPass || !strings.HasPrefix(out, "<svg") || !strings.Contains(out, `class="message"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "trace", path, "--format", "dot")
	if code != exitPass || !strings.HasPrefix(out, "digraph") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if code, _, errs := mc(t, context.Background(), "check", "changroberts", "--trace-out", big); code != exitPass || !strings.Contains(errs, "run of witness leader-elected") {
		t.Fatalf("a passing run with --trace-out: exit %d, %s", code, errs)
	}
	code, out, errs := mc(t, context.Background(), "trace", big, "--format", "dot")
	if code != exitUsage || out != "" || !strings.Contains(errs, "more than 100 states") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("dot of 489 states: exit %d, stderr %q", code, errs)
	}
}

func TestTraceBadInputIsAOneLineUsageError(t *testing.T) {
	path := traceFile(t)
	notTrace := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(notTrace, []byte(`{"format": "something else"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"trace"},
		{"trace", "/no/such/file.json"},
		{"trace", notTrace},
		{"trace", path, "--format", "png"},
		{"trace", path, "--color", "sometimes"},
		{"trace", path, "--replay", "--format", "svg"},
		{"trace", path, path},
		{"check", "changroberts", "--trace-out", "/no/such/dir/t.json"},
	}
	for _, args := range cases {
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "mc") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

func TestProgressIsQuietUnlessAskedOffATerminal(t *testing.T) {
	var buf bytes.Buffer
	if pl, _ := newProgress(&buf, false, false); pl != nil {
		t.Fatal("progress shown on a non-terminal without --progress")
	}
	pl, every := newProgress(&buf, true, true)
	if pl == nil || pl.live || every != loggedEvery {
		t.Fatalf("--progress on a non-terminal: %+v every %s", pl, every)
	}
	pl.rss = func() int64 { return 60 << 20 }
	pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 2_500_000, Depth: 31, Frontier: 120_000, Elapsed: 3 * time.Second, MemoryBytes: 45 << 20})
	if got := buf.String(); got != "mc check: safety: 2.50M states, 833.3k states/s, depth 31, frontier 120.0k, 45.0 MiB held (peak RSS 60.0 MiB), 3s\n" {
		t.Fatalf("progress line %q", got)
	}
}

func TestLiveProgressWaitsTwoSecondsAndIsErased(t *testing.T) {
	var buf bytes.Buffer
	pl := &progressLine{w: &buf, live: true, after: liveAfter, rss: func() int64 { return 0 }}
	pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 1000, Elapsed: time.Second})
	if buf.Len() != 0 {
		t.Fatalf("shown before two seconds: %q", buf.String())
	}
	pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 3000, Elapsed: 2 * time.Second})
	pl.finish()
	if got := buf.String(); got != eraseLine+"mc check: safety: 3000 states, 2000 states/s, depth 0, frontier 0, 0 KiB held (peak RSS 0 KiB), 2s"+eraseLine {
		t.Fatalf("live line %q", got)
	}
}

// Progress goes on through the liveness phase and names it; the new phase's
// rate counts its own states, from 0, not the difference from the safety
// phase's.
func TestProgressNamesTheLivenessPhase(t *testing.T) {
	var buf bytes.Buffer
	pl := &progressLine{w: &buf, rss: func() int64 { return 0 }}
	pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 5000, Elapsed: 5 * time.Second})
	pl.report(checker.Progress{Phase: checker.PhaseLiveness, States: 2000, Depth: 4, Elapsed: 7 * time.Second})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "mc check: liveness: 2000 states, 1000 states/s, depth 4,") || !strings.HasSuffix(lines[1], ", 7s") {
		t.Fatalf("progress lines %q", lines)
	}
}
