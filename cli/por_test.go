package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A reduced run says so, with the states it stored, in both outputs (the
// count itself is pinned in specs/changroberts/testdata/counts.tsv).
func TestPartialOrderReductionIsReported(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "6", "--por", "--safety", "--json")
	var r struct {
		States  int64 `json:"states"`
		Reduced bool  `json:"reduced"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || !r.Reduced || r.States == 0 {
		t.Fatalf("exit %d, %+v (%v):\n%s", code, r, err, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "6", "--por", "--safety")
	if code != exitPass || !strings.Contains(out, fmt.Sprintf("%d states stored", r.States)) || !strings.Contains(out, "reduced: partial-order reduction") {
		t.Fatalf("exit %d, want %d states stored, output:\n%s", code, r.States, out)
	}
}

// A failure under reduction says that its trace need not be shortest;
// --shortest re-runs without reduction and prints a shortest one.
func TestShortestReRunsWithoutReduction(t *testing.T) {
	args := []string{"check", "changroberts", "--ids", "3,1,4,2", "--variant", "raynal-literal", "--initiators", "0", "--por", "--safety"}
	code, out, _ := mc(t, context.Background(), args...)
	if code != exitFail || !strings.Contains(out, "not necessarily a shortest one (--shortest") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), append(args, "--shortest")...)
	if code != exitFail || !strings.Contains(out, "--shortest: re-run without reduction (4 states explored, breadth-first)") ||
		!strings.Contains(out, "3. recv p2 ⟨elect 3⟩") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), append(args, "--shortest", "--json")...)
	var r struct {
		Reduced  bool
		Shortest struct {
			Verdict string
			States  int64
			Trace   struct{ Steps []any }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitFail || !r.Reduced || r.Shortest.Verdict != "fail" || len(r.Shortest.Trace.Steps) != 3 {
		t.Fatalf("exit %d, %+v (%v)", code, r, err)
	}
}

// Settings the reduction cannot honour are refused with one line, exit 2.
func TestPartialOrderReductionRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--por", "--exact"}, "--exact does not use"},
		{[]string{"--por", "--safety", "--store", "disk", "--dir", t.TempDir()}, "disk store"},
		{[]string{"--shortest"}, "--shortest goes with --por"},
	} {
		code, _, errs := mc(t, context.Background(), append([]string{"check", "changroberts", "--n", "4"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
	}
	code, _, errs := mc(t, context.Background(), "check", "hs", "--variant", "raynal-literal", "--n", "4", "--por")
	if code != exitUsage || !strings.Contains(errs, "decides liveness (eventually-leader) only for a spec with a termination measure") || strings.Count(errs, "\n") != 1 {
		t.Errorf("hs raynal-literal --por: exit %d, stderr %q", code, errs)
	}
}

// Liveness under --por is decided by the termination measure on the
// reduced graph, which both outputs say.
func TestLivenessUnderReductionIsReported(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "6", "--por")
	if code != exitPass || !strings.Contains(out, " states stored") || !strings.Contains(out, "decided by the termination measure on the reduced graph") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "6", "--por", "--json")
	var r struct {
		Reduced  bool
		Liveness struct{ Method string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || !r.Reduced || r.Liveness.Method != "termination measure, reduced graph" {
		t.Fatalf("exit %d, %+v (%v):\n%s", code, r, err, out)
	}
}
