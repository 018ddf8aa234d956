package cli

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimulateRaynalLiteralFailsWithATraceThatReplays(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.json")
	code, stdout, stderr := mc(t, context.Background(), "simulate", "changroberts", "--variant", "raynal-literal",
		"--ids", "1,3,2,4", "--initiators", "0", "--runs", "50", "--seed", "1", "--trace-out", out)
	if code != exitFail {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	want := "reproduce: mc simulate changroberts --variant raynal-literal --ids 1,3,2,4 --initiators 0 --seed 1 --run 0"
	if !strings.Contains(stdout, "breaks election-complete") || !strings.Contains(stdout, want) {
		t.Fatalf("output lacks the failure or its reproduction:\n%s", stdout)
	}
	if code, stdout, _ := mc(t, context.Background(), "trace", out, "--replay"); code != exitPass {
		t.Fatalf("the trace does not replay (exit %d):\n%s", code, stdout)
	}
	code, stdout, _ = mc(t, context.Background(), "simulate", "changroberts", "--variant", "raynal-literal",
		"--ids", "1,3,2,4", "--initiators", "0", "--seed", "1", "--run", "0")
	if code != exitFail || !strings.Contains(stdout, "run 0 of seed 1 breaks election-complete") {
		t.Fatalf("the reproduction does not fail alike (exit %d):\n%s", code, stdout)
	}
}

func TestSimulateJSONHasTheMessageStatistics(t *testing.T) {
	args := []string{"simulate", "changroberts", "--variant", "all-initiate", "--n", "6", "--random-ids", "--runs", "40", "--seed", "2", "--json"}
	var outs []string
	for _, workers := range []string{"1", "2"} {
		code, stdout, stderr := mc(t, context.Background(), append(args, "--workers", workers)...)
		if code != exitPass {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		outs = append(outs, stdout)
	}
	if outs[0] != outs[1] {
		t.Fatalf("--workers 1 and 2 differ:\n%s\n%s", outs[0], outs[1])
	}
	var got struct {
		Verdict  string `json:"verdict"`
		Sampled  bool   `json:"sampled"`
		Messages map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(outs[0]), &got); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"mean", "stddev", "ci95", "min", "max", "histogram", "expected_mean", "bound"} {
		if _, ok := got.Messages[field]; !ok {
			t.Errorf("messages has no field %s", field)
		}
	}
	if got.Verdict != "no violation" || !got.Sampled {
		t.Errorf("verdict %q, sampled %v", got.Verdict, got.Sampled)
	}
}

func TestSimulateBadInputIsAOneLineUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"simulate"},
		{"simulate", "nosuchspec"},
		{"simulate", "changroberts", "--runs", "0"},
		{"simulate", "changroberts", "--run", "-1"},
		{"simulate", "changroberts", "--run", "3", "--runs", "5"},
		{"simulate", "changroberts", "--max-steps", "0"},
		{"simulate", "changroberts", "--workers", "0"},
		{"simulate", "changroberts", "--random-ids", "--ids", "1,2,3"},
		{"simulate", "tokenring", "--random-ids"},
		{"simulate", "changroberts", "--max-memory", "lots"},
		{"simulate", "changroberts", "--trace-out", "/no/such/dir/t.json"},
		{"simulate", "changroberts", "--seed", "-1"},
	} {
		code, stdout, stderr := mc(t, context.Background(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, stdout, stderr)
		}
	}
}

// The check: with every process initiating, 300 runs of random
// arrangements at n = 1,000 give a mean number of ⟨elect⟩ messages whose
// 99 % interval holds 1000·H_1000 ≈ 7,485.5 (Chang and Roberts 1979). The
// runs are about 2.5 million steps, a few seconds of CPU: not in -short.
func TestSimulateChangRobertsMeanIsNHn(t *testing.T) {
	if testing.Short() {
		t.Skip("2.5 million steps")
	}
	code, stdout, stderr := mc(t, context.Background(), "simulate", "changroberts", "--variant", "all-initiate", "--n", "1000",
		"--random-ids", "--runs", "300", "--seed", "1", "--json")
	var got struct {
		Messages struct {
			Mean     float64    `json:"mean"`
			CI99     [2]float64 `json:"ci99"`
			Expected float64    `json:"expected_mean"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != exitPass {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr)
	}
	m := got.Messages
	if math.Abs(m.Expected-7485.47) > 0.01 || m.CI99[0] > m.Expected || m.CI99[1] < m.Expected {
		t.Errorf("mean %.1f, 99%% interval [%.1f, %.1f], expected mean %.2f: outside", m.Mean, m.CI99[0], m.CI99[1], m.Expected)
	}
}

// A run cut at --max-steps is no counterexample to termination, as a depth
// limit is none in mc check: the simulation is incomplete, exit 3 (it was
// a failure, exit 1). Specs whose runs never end (misra) pass as before.
func TestRunsCutAtMaxStepsAreIncomplete(t *testing.T) {
	ctx := context.Background()
	code, out, errs := mc(t, ctx, "simulate", "changroberts", "--n", "6", "--runs", "20", "--max-steps", "5")
	if code != exitIncomplete || !strings.Contains(out, "20 runs of 20 cut at --max-steps 5 before terminating, which leaves election-terminates undecided") {
		t.Fatalf("changroberts cut at 5 steps: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = mc(t, ctx, "simulate", "changroberts", "--n", "6", "--runs", "20", "--max-steps", "5", "--json")
	var got struct {
		Verdict       string
		NotTerminated int `json:"not_terminated"`
		Failure       any
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitIncomplete || got.Verdict != "incomplete" || got.NotTerminated != 20 || got.Failure != nil {
		t.Fatalf("--json: exit %d, %v, %+v", code, err, got)
	}
	if code, out, _ = mc(t, ctx, "simulate", "changroberts", "--n", "6", "--runs", "20"); code != exitPass || !strings.Contains(out, "no violation in 20 runs") {
		t.Fatalf("uncut: exit %d\n%s", code, out)
	}
	code, out, _ = mc(t, ctx, "simulate", "misra", "--n", "3", "--runs", "1", "--max-steps", "50")
	if code != exitPass || !strings.Contains(out, "no violation in 1 run\n") || !strings.Contains(out, "n=3, seed 1,") {
		t.Fatalf("misra, whose runs never end: exit %d\n%s", code, out)
	}
}

// vlt beyond n = 16 was refused ("fix one with --orientation"): each run
// now draws its orientation, and says so; a fixed one is still honoured.
func TestSimulateDrawsTheOrientationOfAnUnorientedRing(t *testing.T) {
	code, stdout, stderr := mc(t, context.Background(), "simulate", "vlt", "--n", "17", "--random-ids", "--runs", "3", "--json")
	if code != exitPass {
		t.Fatalf("exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	var out struct {
		RandomOrientation bool `json:"random_orientation"`
		Done              int  `json:"done"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || !out.RandomOrientation || out.Done != 3 {
		t.Fatalf("%+v (%v): want 3 runs with random orientations\n%s", out, err, stdout)
	}
	code, stdout, stderr = mc(t, context.Background(), "simulate", "vlt", "--n", "17", "--random-ids", "--runs", "2", "--orientation", strings.Repeat("01", 8)+"1")
	if code != exitPass || strings.Contains(stdout, "random orientation") {
		t.Fatalf("with --orientation: exit %d\n%s%s", code, stdout, stderr)
	}
}
