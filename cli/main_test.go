package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/vitanyi"
)

func mc(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Run(ctx, args, &out, &errs)
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
		{"check", "changroberts", "--drift", "2"},
		{"check", "vitanyi", "--drift", "-1"},
		{"check", "vitanyi", "--drift", "x"},
		{"check", "vitanyi", "--variant", "scaled"},
		{"check", "vitanyi", "--chan", "bag"},
		{"check", "vitanyi", "--ids", "1,2,40"},
		{"check", "vlt", "--links", "simplex"},
		{"check", "vlt", "--links", ""},
		{"check", "vlt", "--n", "4", "--orientation", "011"},
		{"check", "vlt", "--n", "4", "--orientation", "01x0"},
		{"check", "vlt", "--n", "2"},
		{"check", "vlt", "--chan", "bag"},
		{"check", "vlt", "--cap", "1"},
		{"check", "changroberts", "--links", "half"},
		{"check", "lelann", "--orientation", "00000"},
		{"check", "changroberts", "--fair", "strong"},
		{"check", "changroberts", "--bound", "2"},
		{"check", "misra", "--bound", "0"},
		{"check", "tokenring", "--initiators", "0"},
		{"check", "tokenring", "--ids", "1,2,3"},
		{"check", "tokenring", "--all-ids"},
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
	all := specs.All()
	if code != exitPass || len(lines) != len(all) {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for i, e := range all {
		if !strings.HasPrefix(lines[i], e.Name+" ") {
			t.Fatalf("line %d is not %s's: %s", i, e.Name, lines[i])
		}
	}
	if !strings.Contains(out, "\nhp ") || !strings.Contains(out, "elect*, basic, witness, distance, witness-literal") {
		t.Fatalf("hp missing or without its variants:\n%s", out)
	}
	if !strings.Contains(out, "\nvlt ") || !strings.Contains(out, "--ids 1,5,2,4,3") {
		t.Fatalf("vlt missing or without its default ids:\n%s", out)
	}
	if !strings.Contains(out, "lemma-3-5-iii-shared-colour-away(invariant, --claims)") || !strings.Contains(out, " at-most-one-leader(invariant),") {
		t.Fatalf("vlt's claims not listed, or not marked as needing --claims:\n%s", out)
	}
	if !strings.Contains(out, "(no ids) --chan fifo --fair action --bound: token losses, default 1") ||
		!strings.Contains(out, "(no ids) --chan bag --fair process --bound: requests per process") {
		t.Fatalf("misra and suzukikasami lines lack their defaults:\n%s", out)
	}
	if !strings.Contains(lines[0], "canonical*, raynal-literal") || !strings.Contains(lines[0], "002 §5.2") {
		t.Fatalf("changroberts line lacks its variants or seed: %s", lines[0])
	}
}

func TestUnidirectionalElectionSpecs(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"check", "dkr", "--ids", "3,1,4,2", "--claims"},
		{"check", "hp", "--ids", "1,4,3,2,5", "--claims"},
		{"check", "hp", "--variant", "basic", "--n", "5"},
	} {
		if code, out, _ := mc(t, ctx, args...); code != exitPass || !strings.Contains(out, "verdict: pass") {
			t.Fatalf("%v: exit %d, output:\n%s", args, code, out)
		}
	}
	code, out, _ := mc(t, ctx, "check", "hp", "--variant", "witness-literal", "--ids", "1,3,4,2,5", "--continue")
	// No run ends and none elects a leader: a livelock, shown as a lasso
	// once --continue checks liveness past the witness's failure.
	if code != exitFail || !strings.Contains(out, "0 terminal") || !strings.Contains(out, "fail       leader-elected") ||
		!strings.Contains(out, "eventually eventually-leader violated") || !strings.Contains(out, "---- loop:") {
		t.Fatalf("witness-literal: exit %d, output:\n%s", code, out)
	}
	for _, spec := range []string{"dkr", "hp"} {
		if code, _, errs := mc(t, ctx, "check", spec, "--chan", "bag"); code != exitUsage || !strings.Contains(errs, "needs FIFO channels") {
			t.Fatalf("%s --chan bag: exit %d, stderr %q", spec, code, errs)
		}
	}
}

func TestAllIDsChecksOneArrangementPerClass(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--all-ids")
	if code != exitPass || !strings.Contains(out, "24 classes under rotation, covering 120 of 120 arrangements") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, _, errs := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--all-ids", "--initiators", "0")
	if code != exitUsage || !strings.Contains(errs, "cannot be combined with --initiators") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// --drift reaches Vitányi's election: on a ring of 3, mc check explores
// the system vitanyi.New builds with that drift bound (its counts are
// pinned in specs/vitanyi/testdata/counts.tsv), which differs with the
// bound; with --claims mc reports the worst message count.
func TestVitanyiTakesTheDrift(t *testing.T) {
	seen := map[int64]bool{}
	for _, drift := range []int{0, 1} {
		sys, err := vitanyi.New(model.Params{N: 3, IDs: ring.DescendingIDs(3), Drift: drift})
		if err != nil {
			t.Fatal(err)
		}
		want := checker.Run(context.Background(), sys, checker.Options{})
		code, out, _ := mc(t, context.Background(), "check", "vitanyi", "--n", "3", "--drift", strconv.Itoa(drift))
		if code != exitPass || want.Err != nil || !strings.Contains(out, fmt.Sprintf("%d distinct states, %d transitions", want.States, want.Transitions)) ||
			!strings.Contains(out, "verdict: pass") {
			t.Fatalf("--drift %d: exit %d, want %d states %d transitions (%v), output:\n%s", drift, code, want.States, want.Transitions, want.Err, out)
		}
		seen[want.States] = true
	}
	if len(seen) != 2 {
		t.Fatalf("drift 0 and 1 explore as many states: --drift would go unnoticed")
	}
	code, out, _ := mc(t, context.Background(), "check", "vitanyi", "--ids", "1,2,3,4", "--claims", "--json")
	var r struct {
		Verdict  string
		Measures []struct {
			Name     string
			Max      int
			Complete bool
			Trace    struct{ Steps []struct{ Action string } }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || r.Verdict != "pass" {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(r.Measures) != 2 || r.Measures[0].Name != "messages" || r.Measures[0].Max != 18 || !r.Measures[0].Complete ||
		len(r.Measures[0].Trace.Steps) == 0 {
		t.Fatalf("measures %+v: want messages = 18 with a run reaching it", r.Measures)
	}
	code, out, _ = mc(t, context.Background(), "check", "vitanyi", "--ids", "1,2,3,4", "--drift", "1", "--claims")
	if code != exitPass || !strings.Contains(out, "drift=1") || !strings.Contains(out, "messages   = 15") {
		t.Fatalf("exit %d, output:\n%s", code, out)
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

// The liveness line says whether the search recorded the graph or a second
// exploration built it, and why; the JSON says why in liveness.rebuilt.
func TestTheSummarySaysWhereTheGraphCameFrom(t *testing.T) {
	args := []string{"check", "misra", "--n", "3"}
	code, out, _ := mc(t, context.Background(), args...)
	if code != exitPass || !strings.Contains(out, "decided by the state graph, recorded by the search: graph of 70796 states") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	disk := append(args, "--store", "disk", "--dir", t.TempDir())
	code, out, _ = mc(t, context.Background(), disk...)
	if code != exitPass || !strings.Contains(out, "decided by the state graph, built by a second exploration (--store disk looks the states up at the end of each level): graph of 70796 states") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{{args, ""}, {disk, "--store disk looks the states up at the end of each level"}} {
		_, out, _ = mc(t, context.Background(), append(c.args, "--json")...)
		var r struct{ Liveness struct{ Rebuilt *string } }
		if err := json.NewDecoder(strings.NewReader(out)).Decode(&r); err != nil {
			t.Fatal(err)
		}
		if got := r.Liveness.Rebuilt; (c.want == "") != (got == nil) || got != nil && *got != c.want {
			t.Fatalf("%v: liveness.rebuilt %v, want %q", c.args, got, c.want)
		}
	}
}
