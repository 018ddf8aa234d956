package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
)

// checkJSON runs mc check with --json and decodes its output.
func checkJSON(t *testing.T, args ...string) (int, map[string]any) {
	t.Helper()
	code, out, errs := mc(t, context.Background(), append(append([]string{"check"}, args...), "--json")...)
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: exit %d, not JSON (%v):\n%s\nstderr: %s", args, code, err, out, errs)
	}
	return code, r
}

// The mutant misra variants break an invariant within 14 steps: the run
// stops there with exit 1 (it used to explore on until the OOM killer).
// The properties it did not decide are "not checked", in the text and the
// JSON, but a safety property says what it held on (the states reached),
// and the figures are the same for any number of workers and either store.
func TestMutantMisraStopsAtTheFirstViolation(t *testing.T) {
	for _, variant := range []string{"mod-n", "literal-residues"} {
		code, out, _ := mc(t, context.Background(), "check", "misra", "--variant", variant)
		if code != exitFail || !strings.Contains(out, "not checked (stopped at the first violation): request-granted-p0") ||
			!regexp.MustCompile(`held +mutual-exclusion .*\n +held on the \d+ states reached`).MatchString(out) ||
			!strings.Contains(out, "verdict: fail (stopped at the first violation; --continue checks every property to the end)") {
			t.Fatalf("%s: exit %d, output:\n%s", variant, code, out)
		}
		var figures []string
		for _, args := range [][]string{{"--workers", "1"}, {"--workers", "2"}, {"--store", "disk", "--dir", t.TempDir()}} {
			code, r := checkJSON(t, append([]string{"misra", "--variant", variant}, args...)...)
			props := r["properties"].(map[string]any)
			if code != exitFail || r["stopped_at_first_violation"] != true || props["one-token-each"] != "fail" ||
				props["mutual-exclusion"] != string(checker.NotChecked) || props["lost-token-regenerated"] != string(checker.NotChecked) {
				t.Fatalf("%s %v: exit %d, JSON %v", variant, args, code, r)
			}
			if held := detail(r, "mutual-exclusion")["held_on"]; held != fmt.Sprintf("the %v states reached", r["states"]) {
				t.Fatalf("%s %v: mutual-exclusion held on %v", variant, args, held)
			}
			b, _ := json.Marshal([]any{r["states"], r["transitions"], r["terminal"], r["depth"]})
			figures = append(figures, string(b))
		}
		if figures[0] != figures[1] || figures[0] != figures[2] {
			t.Fatalf("%s: figures differ across workers and stores: %v", variant, figures)
		}
	}
}

// --continue checks every property to the end: no property is left "not
// checked" (here a state limit stops the run, so the undecided ones are
// incomplete).
func TestContinueChecksEveryProperty(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "misra", "--variant", "mod-n", "--continue", "--max-states", "20000")
	if code != exitFail || strings.Contains(out, "not checked") || !strings.Contains(out, "incomplete request-granted-p0") ||
		!strings.Contains(out, "the run stopped early: state limit 20000 reached") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

// A memory limit stops the liveness phase too, and an interrupted liveness
// phase never claims that every run is finite: exit 3.
func TestMemoryLimitHoldsInTheLivenessPhase(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--max-memory", "1KiB")
	if code != exitIncomplete || strings.Contains(out, "no cycle") || strings.Contains(out, "every run is finite") ||
		!strings.Contains(out, "liveness under fairness process: incomplete, memory limit 1.0 KiB reached") ||
		!strings.Contains(out, "incomplete eventually-leader") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, r := checkJSON(t, "changroberts", "--n", "5", "--max-memory", "1KiB")
	live, _ := r["liveness"].(map[string]any)
	if code != exitIncomplete || live == nil || live["complete"] != false || !strings.HasPrefix(live["reason"].(string), "memory limit") {
		t.Fatalf("exit %d, JSON liveness %v", code, live)
	}
}

// The summary gives the whole run's time and each phase's, in the text and
// the JSON.
func TestSummaryGivesEveryPhasesTime(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "4", "--workers", "1")
	if code != exitPass || !strings.Contains(out, "states/s with 1 worker), liveness ") || !strings.Contains(out, ": safety ") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, r := checkJSON(t, "changroberts", "--n", "4")
	phases, _ := r["phase_elapsed_ms"].(map[string]any)
	safety, _ := phases["safety"].(float64)
	liveness, _ := phases["liveness"].(float64)
	total, _ := r["elapsed_ms"].(float64)
	if code != exitPass || safety <= 0 || liveness <= 0 || total < safety+liveness-0.002 || total > safety+liveness+0.002 {
		t.Fatalf("exit %d, elapsed %v, phases %v", code, r["elapsed_ms"], phases)
	}
	if live := r["liveness"].(map[string]any); live["complete"] != true {
		t.Fatalf("liveness %v", live)
	}
}

// One worker is "1 worker"; a run of a few states gets no bytes-per-state
// figure, which the process's own memory would make meaningless.
func TestSummaryWording(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "2", "--workers", "1", "--safety")
	if code != exitPass || !strings.Contains(out, "states/s with 1 worker\n") || strings.Contains(out, "B/state") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	r := &checker.Result{States: 400_000, MemoryBytes: 10 << 20, MemoryLimit: 1 << 30}
	if got, want := memoryLine(r, 40<<20), "memory: peak 40.0 MiB, 104.9 B/state, everything included (visited set and trace log 10.0 MiB); limit 1.00 GiB"; got != want {
		t.Fatalf("memory line %q, want %q", got, want)
	}
	r.States = 4
	if got := memoryLine(r, 40<<20); strings.Contains(got, "B/state") {
		t.Fatalf("memory line of 4 states %q", got)
	}
}

// --all-ids prints one verdict, and stops at the first failing arrangement
// unless --continue.
func TestAllIDsStopsAtTheFirstFailingArrangement(t *testing.T) {
	args := []string{"check", "hp", "--variant", "witness-literal", "--all-ids", "--n", "5"}
	code, out, _ := mc(t, context.Background(), args...)
	if code != exitFail || strings.Count(out, "verdict:") != 1 || !strings.Contains(out, "stopped at the first failing arrangement: 15 of 24 classes not checked") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	// The failing class's ids as mc writes them everywhere (3,1,4,2), not
	// in Go's syntax ([3 1 4 2]).
	if !regexp.MustCompile(`(?m)^  fail +ids \d+(,\d+){4} \(class of \d+\)$`).MatchString(out) {
		t.Fatalf("no failing class in mc's comma form:\n%s", out)
	}
	code, out, _ = mc(t, context.Background(), append(args, "--continue")...)
	if code != exitFail || strings.Count(out, "verdict:") != 1 || strings.Contains(out, "stopped at") || !strings.Contains(out, "covering 120 of 120 arrangements") {
		t.Fatalf("--continue: exit %d, output:\n%s", code, out)
	}
}

// mc check --help documents --continue and the default memory limit.
func TestHelpDocumentsContinueAndTheMemoryDefault(t *testing.T) {
	_, out, errs := mc(t, context.Background(), "check", "--help")
	help := out + errs
	for _, want := range []string{"--continue", "stops at the end of the level where a property first fails", "7/8 of the memory available"} {
		if !strings.Contains(help, want) {
			t.Errorf("mc check --help lacks %q", want)
		}
	}
}

// A ring larger than the spec or the checker holds is refused before
// anything of its size is made (n = 10⁸ was refused only after the ids
// were made and checked, deaf to signals meanwhile); a ring whose run
// cannot finish is warned of in one line, and still runs.
func TestRingSizeIsCheckedBeforeTheRun(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		args []string
		why  string
	}{
		{[]string{"check", "changroberts", "--n", "100000000"}, "--n 100000000: spec changroberts supports rings of at most 32767 processes"},
		{[]string{"simulate", "changroberts", "--n", "100000000"}, "--n 100000000: spec changroberts supports rings of at most 32767 processes"},
		{[]string{"simulate", "misra", "--n", "255"}, "--n 255: spec misra supports rings of at most 254 processes"},
		{[]string{"check", "hs", "--n", "4097"}, "--n 4097: the checker explores rings of at most 4096 processes"},
	} {
		code, out, errs := mc(t, ctx, c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.why) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	const warning = "this run cannot finish"
	code, _, errs := mc(t, ctx, "check", "changroberts", "--n", "41", "--max-states", "100")
	if code != exitIncomplete || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "mc check: warning: n=41, 41 processes starting on their own: their first steps alone interleave into 2^41 states or more") {
		t.Errorf("n = 41: exit %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{{"--n", "40"}, {"--n", "200", "--initiators", "0,1"}} {
		code, _, errs := mc(t, ctx, append([]string{"check", "changroberts", "--max-states", "100"}, args...)...)
		if code != exitIncomplete || strings.Contains(errs, warning) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
