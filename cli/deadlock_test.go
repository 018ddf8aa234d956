package cli

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// jam is a test-only spec: a counter meant to stop at 3, with a rule that
// jams it at 9 from 1, a terminal state two steps from the start. Variant
// stuck declares only 3 a proper end; variant proper declares 9 one too.
func jam(p model.Params) (*model.System[int], error) {
	sys := counterSystem("jam", p,
		model.Rule[int]{Name: "inc", Guard: func(x *int, _ int) bool { return *x < 3 }, Do: func(x *int, _, _ int) bool { *x++; return true }},
		model.Rule[int]{Name: "jam", Guard: func(x *int, _ int) bool { return *x == 1 }, Do: func(x *int, _, _ int) bool { *x = 9; return true }})
	sys.Ends = func(x *int) bool { return *x == 3 }
	if p.Variant == "proper" {
		sys.Ends = func(x *int) bool { return *x == 3 || *x == 9 }
	}
	return sys, nil
}

// withJam registers jam beside mc's own specs for the test.
func withJam(t *testing.T) { useTestSpec(t, testSpec("jam", jam, "stuck", "proper")) }

// A terminal state the spec does not declare a proper end is a deadlock:
// exit 1, property deadlock failing with the shortest run to it (inc, jam)
// in the text and the JSON. Declared proper, or with --no-deadlock, the
// run passes.
func TestCheckReportsADeadlock(t *testing.T) {
	withJam(t)
	code, out, errs := mc(t, context.Background(), "check", "jam", "--no-db")
	if code != exitFail || !strings.Contains(out, "fail       deadlock") ||
		!strings.Contains(out, "deadlock: a terminal state that the spec does not declare a proper end") ||
		!strings.Contains(out, "trace, 2 steps:") || !strings.Contains(out, "  1. inc p0\n") || !strings.Contains(out, "  2. jam p0\n") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "jam", "--no-db", "--json")
	var r struct {
		Verdict    string            `json:"verdict"`
		Properties map[string]string `json:"properties"`
		Trace      struct {
			Property string `json:"property"`
			Kind     string `json:"kind"`
			Deadlock bool   `json:"deadlock"`
			Steps    []struct {
				Action string `json:"action"`
			} `json:"steps"`
		} `json:"trace"`
		NoDeadlock bool `json:"no_deadlock"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitFail {
		t.Fatalf("--json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if tr := r.Trace; r.Verdict != "fail" || r.Properties["deadlock"] != "fail" || tr.Property != "deadlock" || tr.Kind != "end" ||
		!tr.Deadlock || len(tr.Steps) != 2 || tr.Steps[1].Action != "jam p0" || r.NoDeadlock {
		t.Fatalf("--json: %+v", r)
	}
	code, out, _ = mc(t, context.Background(), "check", "jam", "--variant", "proper", "--no-db")
	if code != exitPass || !strings.Contains(out, "pass       deadlock") {
		t.Fatalf("variant proper: exit %d\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "jam", "--no-deadlock", "--no-db")
	if code != exitPass || strings.Contains(out, " deadlock ") || !strings.Contains(out, "--no-deadlock: terminal states not checked for deadlock") {
		t.Fatalf("--no-deadlock: exit %d\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "jam", "--no-deadlock", "--no-db", "--json")
	r.Properties = nil
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || !r.NoDeadlock || r.Properties["deadlock"] != "" {
		t.Fatalf("--no-deadlock --json: exit %d, %v, %+v", code, err, r)
	}
}

// --no-deadlock is part of a run's meaning: a resume that would change it
// is refused naming it, one that keeps it resumes, and a trace of a
// deadlock replays, unless its run claims --no-deadlock, which leaves the
// property unchecked.
func TestNoDeadlockTravelsWithTheRun(t *testing.T) {
	withJam(t)
	off := interrupted(t, "jam", "--no-db")
	code, out, errs := mc(t, context.Background(), "check", "--resume", off, "--no-deadlock", "--no-db")
	if code != exitUsage || out != "" || errs != "mc check: --no-deadlock: the checkpoint has off, the command line has on\n" {
		t.Fatalf("resume adding --no-deadlock: exit %d\n%s%s", code, out, errs)
	}
	on := interrupted(t, "jam", "--no-deadlock", "--no-db")
	code, out, errs = mc(t, context.Background(), "check", "--resume", on, "--no-deadlock=false", "--no-db")
	if code != exitUsage || errs != "mc check: --no-deadlock: the checkpoint has on, the command line has off\n" {
		t.Fatalf("resume dropping --no-deadlock: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "--resume", on, "--no-db")
	if code != exitPass || !strings.Contains(out, "--no-deadlock: terminal states not checked") {
		t.Fatalf("resume keeping --no-deadlock: exit %d\n%s%s", code, out, errs)
	}

	path := writeTrace(t, exitFail, "jam", "--no-db")
	code, out, _ = mc(t, context.Background(), "trace", path, "--replay")
	if code != exitPass || !strings.Contains(out, "still ends in a deadlock: a terminal state the spec does not declare a proper end") {
		t.Fatalf("replay: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f["run"].(map[string]any)["no_deadlock"] = true
	if data, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = mc(t, context.Background(), "trace", path, "--replay")
	if code != exitFail || !strings.Contains(out, "the trace's run has --no-deadlock, which leaves property deadlock unchecked") {
		t.Fatalf("replay of a --no-deadlock run's deadlock: exit %d\n%s", code, out)
	}
}
