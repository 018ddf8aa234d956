package main

import (
	"context"
	"encoding/json"
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
