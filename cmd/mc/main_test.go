package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func mc(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(ctx, args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestCheckPassesAndReportsCounts(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "4", "--ids", "3,1,4,2")
	if code != exitPass || !strings.Contains(out, "75 distinct states, 191 transitions") || !strings.Contains(out, "verdict: pass") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestDefaultRunIsDescendingFive(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts")
	if code != exitPass || !strings.Contains(out, "n=5 ids=5,4,3,2,1") || !strings.Contains(out, "489 distinct states") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestJSONOutput(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--ids", "3,1,5,2,4", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v):\n%s", err, out)
	}
	for _, k := range []string{"spec", "variant", "n", "ids", "verdict", "states", "transitions", "depth", "elapsed_ms", "properties"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if code != exitPass || r["verdict"] != "pass" || r["states"] != 270.0 || r["n"] != 5.0 || r["variant"] != "canonical" {
		t.Fatalf("exit %d, JSON %v", code, r)
	}
	if props := r["properties"].(map[string]any); props["election-complete"] != "pass" || props["leader-elected"] != "pass" {
		t.Fatalf("properties %v", props)
	}
}

func TestFailureExitsOneWithATrace(t *testing.T) {
	args := []string{"check", "changroberts", "--ids", "3,1,4,2", "--variant", "raynal-literal", "--initiators", "0"}
	code, out, _ := mc(t, context.Background(), args...)
	if code != exitFail || !strings.Contains(out, "deadlock: a terminal state violates end property election-complete") ||
		!strings.Contains(out, "3. recv p2 ⟨elect 3⟩") || !strings.Contains(out, "verdict: fail") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), append(args, "--json")...)
	var r struct {
		Verdict string
		Trace   struct {
			Property string
			Deadlock bool
			Steps    []struct{ Action string }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitFail {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if r.Verdict != "fail" || r.Trace.Property != "election-complete" || !r.Trace.Deadlock || len(r.Trace.Steps) != 3 ||
		r.Trace.Steps[0].Action != "start p0 (sends ⟨elect 3⟩)" {
		t.Fatalf("JSON trace %+v", r)
	}
}

func TestLimitsAndInterruptionAreIncomplete(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "6", "--max-states", "100")
	if code != exitIncomplete || !strings.Contains(out, "incomplete (state limit 100 reached)") || strings.Contains(out, "verdict: pass") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, _ = mc(t, ctx, "check", "changroberts", "--n", "6")
	if code != exitIncomplete || !strings.Contains(out, "incomplete (interrupted)") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestBadInputIsAOneLineUsageError(t *testing.T) {
	cases := [][]string{
		{"check"},
		{"check", "nosuchspec"},
		{"check", "changroberts", "--variant", "nope"},
		{"check", "changroberts", "--ids", "1,2,2"},
		{"check", "changroberts", "--ids", "1,x"},
		{"check", "changroberts", "--n", "3", "--ids", "1,2"},
		{"check", "changroberts", "--n", "1"},
		{"check", "changroberts", "--ids", "1"},
		{"check", "changroberts", "--max-states", "0"},
		{"check", "changroberts", "--timeout", "-1s"},
		{"check", "changroberts", "--chan", "lifo"},
		{"check", "changroberts", "--cap", "0"},
		{"check", "changroberts", "--initiators", "7"},
		{"check", "changroberts", "--bogus"},
		{"check", "changroberts", "lelann"},
		{"check", "changroberts", "--fair", "strong"},
		{"check", "changroberts", "--bound", "2"},
		{"check", "misra", "--bound", "0"},
		{"check", "tokenring", "--initiators", "0"},
		{"frobnicate"},
		{"list", "extra"},
	}
	for _, args := range cases {
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "mc") || out != "" {
			t.Errorf("%v: want one error line on stderr, got stderr %q stdout %q", args, errs, out)
		}
	}
}

func TestListNamesEverySpecOnOneLine(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"changroberts", "lelann", "misra", "suzukikasami", "tokenring"}
	if code != exitPass || len(lines) != len(want) {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for i, name := range want {
		if !strings.HasPrefix(lines[i], name+" ") {
			t.Fatalf("line %d is not %s: %s", i, name, lines[i])
		}
	}
	if !strings.Contains(lines[2], "--fair action; --bound: token losses, default 1") ||
		!strings.Contains(lines[3], "--chan bag --initiators all --fair process; --bound: requests per process") {
		t.Fatalf("misra and suzukikasami lines lack their defaults:\n%s\n%s", lines[2], lines[3])
	}
	if !strings.Contains(lines[0], "canonical*, raynal-literal") || !strings.Contains(lines[0], "002 §5.2") {
		t.Fatalf("changroberts line lacks its variants or seed: %s", lines[0])
	}
}

// A liveness counterexample prints as a lasso with its loop marked, and the
// JSON trace carries loop_start.
func TestLassoIsPrintedWithItsLoop(t *testing.T) {
	args := []string{"check", "misra", "--n", "2", "--fair", "none"}
	code, out, _ := mc(t, context.Background(), args...)
	for _, want := range []string{
		"leads-to request-granted-p0 violated",
		"lasso: 5 steps to the loop, then steps 6–17 repeat forever:",
		"1. request p0   ← from here on the goal is awaited and never holds",
		"---- loop: from the state above, steps 6–17 repeat forever",
		"---- back to the state after step 5; the loop repeats forever",
		"liveness under fairness none:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitFail {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), append(args, "--json")...)
	var r struct {
		Fair  string
		Trace struct {
			Kind      string
			LoopStart *int `json:"loop_start"`
			From      *int
			Steps     []struct{ Action string }
		}
		Liveness struct{ States, Cycles int }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitFail {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if r.Fair != "none" || r.Trace.Kind != "leads-to" || r.Trace.LoopStart == nil || *r.Trace.LoopStart != 5 ||
		r.Trace.From == nil || *r.Trace.From != 1 || len(r.Trace.Steps) != 17 || r.Liveness.States != 5244 {
		t.Fatalf("JSON %+v", r)
	}
	// The spec's default fairness (per action class for misra) passes.
	if code, out, _ := mc(t, context.Background(), "check", "misra", "--n", "2"); code != exitPass || !strings.Contains(out, "fairness action") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}
