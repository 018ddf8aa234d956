package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// counter builds tally, a test-only spec: a counter from 0 up to 4 (variant long) or 1
// (variant short), with an invariant about the values above 2 and "3
// leads to the end", both vacuous in variant short, which never gets
// there.
func counter(p model.Params) (*model.System[int], error) {
	top := 4
	if p.Variant == "short" {
		top = 1
	}
	sys := counterSystem("tally", p,
		model.Rule[int]{Name: "inc", Guard: func(x *int, _ int) bool { return *x < top }, Do: func(x *int, _, _ int) bool { *x++; return true }})
	sys.Props = []model.Property[int]{
		model.InvariantProp("at-most-four", "test", "x ≤ 4", func(x *int) bool { return *x <= 4 }).
			When("x never exceeded 2", func(x *int) bool { return *x > 2 }),
		model.LeadsToProp("three-leads-to-end", "test", "x = 3 leads to x = top", func(x *int) bool { return *x == 3 },
			func(x *int) bool { return *x == top }).SayingUnmet("x was never 3"),
	}
	sys.Ends = model.EveryEnd[int]
	return sys, nil
}

// withTally registers tally beside mc's own specs for the test.
func withTally(t *testing.T) { useTestSpec(t, testSpec("tally", counter, "long", "short")) }

// detail is the property_details entry of property name in a run's JSON.
func detail(r map[string]any, name string) map[string]any {
	for _, d := range r["property_details"].([]any) {
		if d := d.(map[string]any); d["name"] == name {
			return d
		}
	}
	return nil
}

// A vacuous pass is reported as such in the text, saying what never
// happened, and in the JSON, where every property says whether it was
// vacuous; the run still passes. With --fail-vacuous it fails, exit 1.
func TestCheckReportsVacuousPasses(t *testing.T) {
	withTally(t)
	code, out, errs := mc(t, context.Background(), "check", "tally", "--variant", "long", "--no-db")
	if code != exitPass || strings.Contains(out, "vacuous") {
		t.Fatalf("long: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "tally", "--variant", "short", "--no-db")
	if code != exitPass || !strings.Contains(out, "  vacuous    at-most-four ") || !strings.Contains(out, "pass (vacuous: x never exceeded 2)") ||
		!strings.Contains(out, "pass (vacuous: x was never 3)") || !strings.Contains(out, "  pass       deadlock ") ||
		!strings.Contains(out, "vacuous (the situation they speak of never arose, so this run did not test them): at-most-four, three-leads-to-end") ||
		!strings.Contains(out, "verdict: pass") {
		t.Fatalf("short: exit %d\n%s%s", code, out, errs)
	}
	for _, variant := range []string{"long", "short"} {
		code, r := checkJSON(t, "tally", "--variant", variant, "--no-db")
		for _, name := range []string{"at-most-four", "three-leads-to-end", "deadlock"} {
			d := detail(r, name)
			v, ok := d["vacuous"]
			if want := variant == "short" && name != "deadlock"; code != exitPass || !ok || v != want || (d["unmet"] != nil) != want {
				t.Fatalf("%s: exit %d, %s: %v", variant, code, name, d)
			}
		}
	}
	code, out, errs = mc(t, context.Background(), "check", "tally", "--variant", "short", "--no-db", "--fail-vacuous")
	if code != exitFail || !strings.Contains(out, "fail (vacuous: x never exceeded 2; --fail-vacuous)") ||
		!strings.Contains(out, "invariant at-most-four passed vacuously, a failure under --fail-vacuous: x never exceeded 2") ||
		!strings.Contains(out, "verdict: fail (--fail-vacuous: a property passed vacuously)") {
		t.Fatalf("--fail-vacuous: exit %d\n%s%s", code, out, errs)
	}
	code, r := checkJSON(t, "tally", "--variant", "short", "--no-db", "--fail-vacuous")
	if d := detail(r, "at-most-four"); code != exitFail || r["verdict"] != "fail" || r["fail_vacuous"] != true || d["verdict"] != "fail" || d["vacuous"] != true {
		t.Fatalf("--fail-vacuous --json: exit %d, %v", code, r)
	}
	if code, _ := checkJSON(t, "tally", "--variant", "long", "--no-db", "--fail-vacuous"); code != exitPass {
		t.Fatalf("--fail-vacuous on a run with no vacuous pass: exit %d", code)
	}
}

// JUnit marks a vacuous pass in the case's output, and a vacuous pass
// that --fail-vacuous fails as a failure of type vacuous. A safety
// property skipped as the run stopped at another's failure says what it
// held on.
func TestJUnitMarksVacuousPasses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "misra.xml")
	if code, out, errs := mc(t, context.Background(), "check", "misra", "--variant", "mod-n", "--no-db", "--junit", path); code != exitFail {
		t.Fatalf("misra mod-n: exit %d\n%s%s", code, out, errs)
	}
	if c := readJUnit(t, path).Suites[0].Cases[0]; c.Name != "mutual-exclusion" || c.Skipped == nil || !strings.HasPrefix(c.SystemOut, "held on the ") {
		t.Fatalf("misra mod-n: %+v, want mutual-exclusion skipped saying what it held on", c)
	}
	withTally(t)
	for _, fail := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "report.xml")
		args := []string{"check", "tally", "--variant", "short", "--no-db", "--junit", path}
		if fail {
			args = append(args, "--fail-vacuous")
		}
		if code, out, errs := mc(t, context.Background(), args...); code != map[bool]int{false: exitPass, true: exitFail}[fail] {
			t.Fatalf("fail=%v: exit %d\n%s%s", fail, code, out, errs)
		}
		c := readJUnit(t, path).Suites[0].Cases[0]
		switch {
		case c.Name != "at-most-four":
			t.Fatalf("first case %s", c.Name)
		case !fail && (c.Failure != nil || c.SystemOut != "pass (vacuous: x never exceeded 2)"):
			t.Fatalf("vacuous pass: %+v", c)
		case fail && (c.Failure == nil || c.Failure.Type != "vacuous" || !strings.Contains(c.Failure.Message, "x never exceeded 2")):
			t.Fatalf("--fail-vacuous: %+v", c)
		}
	}
}

// --fail-vacuous is part of a run's meaning: a resume that would change it
// is refused, naming it.
func TestFailVacuousTravelsWithTheRun(t *testing.T) {
	withTally(t)
	dir := interrupted(t, "tally", "--variant", "short", "--fail-vacuous", "--no-db")
	code, out, errs := mc(t, context.Background(), "check", "--resume", dir, "--fail-vacuous=false", "--no-db")
	if code != exitUsage || errs != "mc check: --fail-vacuous: the checkpoint has on, the command line has off\n" {
		t.Fatalf("resume dropping --fail-vacuous: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "--resume", dir, "--no-db")
	if code != exitFail || !strings.Contains(out, "--fail-vacuous") {
		t.Fatalf("resume keeping --fail-vacuous: exit %d\n%s%s", code, out, errs)
	}
}

// mc simulate counts, per property whose situation a run may not meet, the
// runs that met it, and names the others' vacuous passes.
func TestSimulateCountsSituations(t *testing.T) {
	withTally(t)
	code, out, errs := mc(t, context.Background(), "simulate", "tally", "--n", "2", "--variant", "short", "--runs", "5")
	if code != exitPass || !strings.Contains(out, "at-most-four met its situation in 0 of 5 runs, vacuous in the others (x never exceeded 2)") ||
		!strings.Contains(out, "three-leads-to-end met its situation in 0 of 5 runs, vacuous in the others (x was never 3)") {
		t.Fatalf("short: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "simulate", "tally", "--n", "2", "--variant", "long", "--runs", "5")
	if code != exitPass || strings.Contains(out, "met its situation") {
		t.Fatalf("long: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "simulate", "tally", "--n", "2", "--variant", "long", "--runs", "5", "--json")
	if code != exitPass || !strings.Contains(out, `"name": "at-most-four",
      "unmet": "x never exceeded 2",
      "runs": 5`) {
		t.Fatalf("long --json: exit %d\n%s%s", code, out, errs)
	}
}
