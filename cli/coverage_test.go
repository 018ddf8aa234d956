package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// Chang–Roberts at n = 5: both rules, with their counts. They add up to the
// run's 1,428 transitions and its 488 states other than the initial one.
func TestCheckCoverageJSONListsBothRules(t *testing.T) {
	code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--coverage", "--json")
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Coverage checkjson.Coverage `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Coverage)
	want := `{"reduced":false,"rules":[` +
		`{"rule":"start","fired":341,"new_states":31,"procs":[{"proc":0,"fired":90,"new_states":1},{"proc":1,"fired":53,"new_states":2},{"proc":2,"fired":48,"new_states":4},{"proc":3,"fired":60,"new_states":8},{"proc":4,"fired":90,"new_states":16}]},` +
		`{"rule":"recv","fired":1087,"new_states":457,"procs":[{"proc":0,"fired":305,"new_states":19},{"proc":1,"fired":122,"new_states":33},{"proc":2,"fired":174,"new_states":61},{"proc":3,"fired":219,"new_states":129},{"proc":4,"fired":267,"new_states":215}]}],` +
		`"never_fired":[],"warnings":[]}`
	if string(got) != want {
		t.Fatalf("coverage\n got %s\nwant %s", got, want)
	}
	if strings.Contains(errs, "never fired") {
		t.Fatalf("a warning on stderr: %s", errs)
	}
}

// deadRule is a test-only spec, a counter to 3, its proper end, with a
// second rule whose guard is never true: a mis-parameterised model.
func deadRule(p model.Params) (*model.System[int], error) {
	sys := counterSystem("deadrule", p,
		model.Rule[int]{Name: "inc", Guard: func(x *int, _ int) bool { return *x < 3 }, Do: func(x *int, _, _ int) bool { *x++; return true }},
		model.Rule[int]{Name: "reset", Guard: func(x *int, _ int) bool { return *x > 3 }, Do: func(x *int, _, _ int) bool { *x = 0; return true }})
	sys.Ends = func(x *int) bool { return *x == 3 }
	return sys, nil
}

// A rule that never fired is a warning, on stderr and in the JSON; the
// run's verdict is unchanged.
func TestNeverFiredRuleIsWarned(t *testing.T) {
	entry := specs.Of(specdef.Spec[int]{Info: specdef.Info{Name: "deadrule", Defaults: specdef.Defaults{N: 1},
		Variants: []model.Variant{{Name: "counter"}}, Source: fstest.MapFS{"deadrule.go": {Data: []byte("package deadrule\n")}}}, Build: deadRule})
	t.Cleanup(func() { lookupSpec = specs.Lookup })
	lookupSpec = func(name string) (specs.Entry, error) {
		if name == "deadrule" {
			return entry, nil
		}
		return specs.Lookup(name)
	}
	const warning = "rule reset never fired: the model may be vacuous or mis-parameterised"
	code, out, errs := mc(t, context.Background(), "check", "deadrule", "--coverage", "--no-db")
	if code != exitPass || errs != "mc check: warning: "+warning+"\n" || !strings.Contains(out, "inc ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "deadrule", "--coverage", "--json", "--no-db")
	var r struct {
		Coverage checkjson.Coverage `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || !strings.Contains(errs, warning) {
		t.Fatalf("--json: exit %d, %v, stderr %q", code, err, errs)
	}
	if c := r.Coverage; fmt.Sprint(c.NeverFired, c.Warnings) != "[reset] ["+warning+"]" || c.Rules[0].Fired != 3 || c.Rules[0].New != 3 {
		t.Fatalf("--json: coverage %+v", c)
	}
	if code, _, errs := mc(t, context.Background(), "check", "deadrule", "--no-db"); code != exitPass || errs != "" {
		t.Fatalf("without --coverage: exit %d, stderr %q", code, errs)
	}
}

// --max-depth: below the graph's depth (15 at n = 5) the run is incomplete,
// "no violation up to depth D", with liveness not checked; at it, the run
// is the unbounded pass; with --por, or not positive, it is refused.
func TestCheckMaxDepth(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--max-depth", "3", "--no-db")
	if code != exitIncomplete || !strings.Contains(out, "55 distinct states") || !strings.Contains(out, "no violation up to depth 3") ||
		!strings.Contains(out, "not checked (liveness is not decided on a graph cut at depth 3): eventually-leader, election-terminates") {
		t.Fatalf("--max-depth 3: exit %d\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "5", "--max-depth", "15", "--no-db")
	if code != exitPass || !strings.Contains(out, "489 distinct states") || !strings.Contains(out, "verdict: pass") {
		t.Fatalf("--max-depth 15: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--max-depth", "3", "--por", "--safety"}, {"--max-depth", "0"}} {
		code, out, errs := mc(t, context.Background(), append([]string{"check", "changroberts", "--n", "5", "--no-db"}, args...)...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--max-depth") {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// A checkpoint of a bounded run resumes with its bound and the same
// verdict, and the run cut at its bound, which has ended, is not offered
// for resuming; another bound is refused, naming --max-depth, and so is
// --coverage on a checkpoint saved without it. With --coverage throughout,
// the resumed run reports the whole run's counts.
func TestResumeKeepsTheBoundAndTheCounts(t *testing.T) {
	dir := interrupted(t, "changroberts", "--n", "5", "--max-depth", "3", "--no-db")
	code, out, _ := mc(t, context.Background(), "check", "--resume", dir, "--no-db")
	if code != exitIncomplete || !strings.Contains(out, "55 distinct states") || !strings.Contains(out, "no violation up to depth 3") ||
		strings.Contains(out, "resume with") {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	for flag, refusal := range map[string]string{
		"--max-depth=4": "mc check: --max-depth: the checkpoint has 3, the command line has 4\n",
		"--coverage":    "mc check: " + checker.CoverageMissing + "\n",
	} {
		code, out, errs := mc(t, context.Background(), "check", "--resume", dir, flag, "--no-db")
		if code != exitUsage || out != "" || errs != refusal {
			t.Fatalf("resume %s: exit %d, stdout %q, stderr %q", flag, code, out, errs)
		}
	}
	_, whole, _ := mc(t, context.Background(), "check", "changroberts", "--n", "5", "--coverage", "--json", "--no-db")
	dir = interrupted(t, "changroberts", "--n", "5", "--coverage", "--no-db")
	code, resumed, _ := mc(t, context.Background(), "check", "--resume", dir, "--coverage", "--json", "--no-db")
	if code != exitPass || coverageOf(t, resumed) != coverageOf(t, whole) {
		t.Fatalf("resumed: exit %d, coverage %s, want %s", code, coverageOf(t, resumed), coverageOf(t, whole))
	}
}

func coverageOf(t *testing.T, out string) string {
	t.Helper()
	var r struct {
		Coverage json.RawMessage `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Coverage == nil {
		t.Fatalf("no coverage in %s (%v)", out, err)
	}
	return string(r.Coverage)
}

// mc simulate --coverage warns of the dead rule as mc check does, counts
// every run's steps as fired (3 per run) and each state as new once, and
// reports the same counts in the JSON for any --workers.
func TestSimulateCoverageWarnsOfANeverFiredRule(t *testing.T) {
	entry := specs.Of(specdef.Spec[int]{Info: specdef.Info{Name: "deadrule", Defaults: specdef.Defaults{N: 1},
		Variants: []model.Variant{{Name: "counter"}}, Source: fstest.MapFS{"deadrule.go": {Data: []byte("package deadrule\n")}}}, Build: deadRule})
	t.Cleanup(func() { lookupSpec = specs.Lookup })
	lookupSpec = func(name string) (specs.Entry, error) {
		if name == "deadrule" {
			return entry, nil
		}
		return specs.Lookup(name)
	}
	const warning = "rule reset never fired: the model may be vacuous or mis-parameterised"
	code, out, errs := mc(t, context.Background(), "simulate", "deadrule", "--n", "2", "--runs", "10", "--coverage")
	if code != exitPass || errs != "mc simulate: warning: "+warning+"\n" || !strings.Contains(out, "4 distinct states reached in 10 runs") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	var jsons []string
	for _, workers := range []string{"1", "2"} {
		code, out, errs = mc(t, context.Background(), "simulate", "changroberts", "--n", "5", "--runs", "60", "--coverage", "--json", "--workers", workers)
		var r struct {
			Coverage jsonSimulationCoverage `json:"coverage"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || errs != "" {
			t.Fatalf("--json: exit %d, %v, stderr %q", code, err, errs)
		}
		if c := r.Coverage; c.Runs != 60 || len(c.Rules) != 2 || c.Rules[0].Rule != "start" || c.Rules[1].Fired == 0 || c.Distinct == 0 {
			t.Fatalf("--json: coverage %+v", c)
		}
		cov, _ := json.Marshal(r.Coverage)
		jsons = append(jsons, string(cov))
	}
	if jsons[0] != jsons[1] {
		t.Errorf("1 worker: %s\n2 workers: %s", jsons[0], jsons[1])
	}
}
