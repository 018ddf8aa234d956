package cli

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/allids"
	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/model"
)

// readJUnit decodes the JUnit report at path and checks that its counts
// are its cases': the totals and every suite's.
func readJUnit(t *testing.T, path string) *junit.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r junit.Report
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s does not decode: %v\n%s", path, err, data)
	}
	var total junit.Counts
	for _, s := range r.Suites {
		var c junit.Counts
		for _, tc := range s.Cases {
			c.Tests++
			switch {
			case tc.Failure != nil:
				c.Failures++
			case tc.Error != nil:
				c.Errors++
			case tc.Skipped != nil:
				c.Skipped++
			}
		}
		if c.Tests != s.Tests || c.Failures != s.Failures || c.Errors != s.Errors || c.Skipped != s.Skipped {
			t.Errorf("suite %q says %+v, its cases count %+v", s.Name, s.Counts, c)
		}
		total.Tests, total.Failures, total.Errors, total.Skipped = total.Tests+c.Tests, total.Failures+c.Failures, total.Errors+c.Errors, total.Skipped+c.Skipped
	}
	if r.Tests != total.Tests || r.Failures != total.Failures || r.Errors != total.Errors || r.Skipped != total.Skipped {
		t.Errorf("the report says %+v, its cases count %+v", r.Counts, total)
	}
	return &r
}

// outcome is what a case says: "pass", "fail", "error" or "skipped".
func outcome(c junit.Case) string {
	switch {
	case c.Failure != nil:
		return "fail"
	case c.Error != nil:
		return "error"
	case c.Skipped != nil:
		return "skipped"
	}
	return "pass"
}

// junitOutcome is the case a property of mc check's JSON verdict becomes:
// a property a limit left undecided, and in an incomplete run every
// property not decided, is an error.
func junitOutcome(verdict, run string) string {
	switch {
	case verdict == "pass" || verdict == "fail":
		return verdict
	case verdict == "incomplete" || run == "incomplete":
		return "error"
	}
	return "skipped"
}

// checkedJUnit runs mc check with args twice, with --json and with
// --junit, and checks that the report has one suite with a case per
// property of the JSON, in its order, each with the outcome of its
// verdict. It returns the report, mc check's human output and exit code.
func checkedJUnit(t *testing.T, args ...string) (*junit.Report, string, int) {
	t.Helper()
	ctx := context.Background()
	_, js, _ := mc(t, ctx, append(append([]string{"check"}, args...), "--json")...)
	var run struct {
		Verdict string `json:"verdict"`
		Details []struct {
			Name    string `json:"name"`
			Verdict string `json:"verdict"`
		} `json:"property_details"`
	}
	if err := json.Unmarshal([]byte(js), &run); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, js)
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	code, out, errs := mc(t, ctx, append(append([]string{"check"}, args...), "--junit", path)...)
	if errs != "" && code == exitUsage {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	r := readJUnit(t, path)
	if len(r.Suites) != 1 || len(r.Suites[0].Cases) != len(run.Details) {
		t.Fatalf("%v: %d suites, want 1 with %d cases:\n%+v", args, len(r.Suites), len(run.Details), r)
	}
	for i, c := range r.Suites[0].Cases {
		p := run.Details[i]
		if c.Name != p.Name || outcome(c) != junitOutcome(p.Verdict, run.Verdict) {
			t.Errorf("%v: case %d is %s, %s; want %s, %s (verdict %s)", args, i, c.Name, outcome(c), p.Name, junitOutcome(p.Verdict, run.Verdict), p.Verdict)
		}
	}
	return r, out, code
}

// The README's failing check: the JUnit report fails the properties mc
// check fails, with the counterexample mc check prints as their text, and
// skips those the run did not decide, saying why.
func TestJUnitOfAFailingCheckCarriesTheCounterexample(t *testing.T) {
	r, out, code := checkedJUnit(t, "changroberts", "--variant", "raynal-literal", "--ids", "3,1,4,2", "--initiators", "0")
	s := r.Suites[0]
	if code != exitFail || s.Failures == 0 || s.Skipped == 0 || s.Errors != 0 {
		t.Fatalf("exit %d, suite %+v", code, s.Counts)
	}
	if want := "mc check changroberts (variant raynal-literal) n=4 ids=3,1,4,2"; !strings.HasPrefix(s.Name, want) {
		t.Errorf("suite %q, want it to start %q", s.Name, want)
	}
	var complete *junit.Case
	for i, c := range s.Cases {
		if c.Name == "election-complete" {
			complete = &s.Cases[i]
		}
		if c.Skipped != nil && c.Skipped.Message != stoppedAtFailure {
			t.Errorf("%s skipped: %q", c.Name, c.Skipped.Message)
		}
	}
	if complete == nil || complete.Failure == nil {
		t.Fatalf("election-complete does not fail: %+v", complete)
	}
	f := complete.Failure
	for _, want := range []string{"deadlock: a terminal state violates end property election-complete", "3. recv p2 ⟨elect 3⟩", "no action is enabled in this state"} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("the failure's text lacks %q:\n%s", want, f.Text)
		}
	}
	// mc check prints one counterexample, the shortest: some failure's
	// text is that trace, as printed.
	printed := false
	for _, c := range s.Cases {
		printed = printed || (c.Failure != nil && strings.Contains(c.Failure.Text, "\n  1. ") && strings.Contains(out, c.Failure.Text))
	}
	if !printed {
		t.Errorf("no failure's text is the trace mc check prints:\n%s", out)
	}
	if f.Type != "end" || !strings.HasPrefix(f.Message, "end election-complete violated") {
		t.Errorf("failure type %q, message %q", f.Type, f.Message)
	}
}

func TestJUnitOfAPassingCheckPassesEveryProperty(t *testing.T) {
	r, _, code := checkedJUnit(t, "changroberts", "--n", "4", "--ids", "3,1,4,2")
	if s := r.Suites[0]; code != exitPass || s.Tests == 0 || s.Failures+s.Errors+s.Skipped != 0 {
		t.Fatalf("exit %d, suite %+v", code, s.Counts)
	}
	if p := r.Suites[0].Properties; p == nil || len(p.List) < 5 || p.List[4] != (junit.Property{Name: "states", Value: "75"}) {
		t.Errorf("suite properties %+v, want 75 states", p)
	}
}

// A run stopped by --max-states, or cut by --max-depth, passes nothing it
// did not decide: every property but a witness reached is an error, whose
// message names the limit.
func TestJUnitOfAnIncompleteCheckHasErrors(t *testing.T) {
	for _, c := range []struct{ flag, value, limit string }{
		{"--max-states", "50", "state limit 50 reached"},
		{"--max-depth", "3", "depth"},
	} {
		r, _, code := checkedJUnit(t, "changroberts", "--n", "5", c.flag, c.value)
		s := r.Suites[0]
		if code != exitIncomplete || s.Errors == 0 || s.Failures != 0 || s.Skipped != 0 {
			t.Fatalf("%s: exit %d, suite %+v", c.flag, code, s.Counts)
		}
		for _, tc := range s.Cases {
			if tc.Error != nil && !strings.Contains(tc.Error.Message, c.limit) {
				t.Errorf("%s: %s: error %q does not name the limit", c.flag, tc.Name, tc.Error.Message)
			}
		}
	}
}

// --all-ids: a suite per arrangement class, the classes after the first
// failing one skipped, property by property, with the reason.
func TestJUnitOfAllIDsHasASuitePerClass(t *testing.T) {
	ctx := context.Background()
	args := []string{"check", "hp", "--variant", "witness-literal", "--all-ids", "--n", "5"}
	_, js, _ := mc(t, ctx, append(args, "--json")...)
	var sum allids.Summary
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	if code, out, errs := mc(t, ctx, append(args, "--junit", path)...); code != exitFail {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	r := readJUnit(t, path)
	if len(r.Suites) != sum.Classes || !sum.StoppedAtViolation || len(sum.Rows) >= sum.Classes {
		t.Fatalf("%d suites, want one per class of %d (%d checked)", len(r.Suites), sum.Classes, len(sum.Rows))
	}
	props := len(r.Suites[0].Cases)
	for i, s := range r.Suites {
		ids := fmt.Sprintf("ids=%s ", model.FormatInts(sum.Rows[min(i, len(sum.Rows)-1)].IDs))
		switch {
		case len(s.Cases) != props:
			t.Errorf("suite %q has %d cases, the first %d", s.Name, len(s.Cases), props)
		case i < len(sum.Rows) && !strings.Contains(s.Name, ids):
			t.Errorf("suite %d is %q, want the class of %s", i, s.Name, ids)
		case i < len(sum.Rows) && (s.Failures > 0) != (sum.Rows[i].Verdict == "fail"):
			t.Errorf("suite %q: %+v, verdict %s", s.Name, s.Counts, sum.Rows[i].Verdict)
		case i >= len(sum.Rows) && s.Skipped != props:
			t.Errorf("unchecked class %q: %+v, want every case skipped", s.Name, s.Counts)
		case i >= len(sum.Rows) && !strings.Contains(s.Cases[0].Skipped.Message, "first failing arrangement"):
			t.Errorf("unchecked class %q skipped for %q", s.Name, s.Cases[0].Skipped.Message)
		}
	}
	if r.Failures != 1 {
		t.Errorf("%d failures, want the first failing class's witness", r.Failures)
	}
}

// mc simulate: the failing property's case carries the command that makes
// the run again and the run as mc trace prints it.
func TestJUnitOfAFailingSimulation(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	report, trace := filepath.Join(dir, "report.xml"), filepath.Join(dir, "t.json")
	code, out, errs := mc(t, ctx, "simulate", "changroberts", "--variant", "raynal-literal",
		"--ids", "1,3,2,4", "--initiators", "0", "--runs", "50", "--seed", "1", "--trace-out", trace, "--junit", report)
	if code != exitFail {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	r := readJUnit(t, report)
	if len(r.Suites) != 1 || r.Failures != 1 || r.Errors != 0 {
		t.Fatalf("report %+v", r.Counts)
	}
	var summary struct {
		Summary string `json:"summary"`
		Failure struct {
			Property string `json:"property"`
		} `json:"failure"`
	}
	_, js, _ := mc(t, ctx, "simulate", "changroberts", "--variant", "raynal-literal", "--ids", "1,3,2,4", "--initiators", "0", "--runs", "50", "--seed", "1", "--json")
	if err := json.Unmarshal([]byte(js), &summary); err != nil || !strings.HasPrefix(summary.Summary, "run 0 of seed 1 breaks") {
		t.Fatalf("%v: %s", err, js)
	}
	_, text, _ := mc(t, ctx, "trace", trace, "--color", "never")
	for _, c := range r.Suites[0].Cases {
		switch {
		case c.Name == summary.Failure.Property:
			want := "reproduce: mc simulate changroberts --variant raynal-literal --ids 1,3,2,4 --initiators 0 --seed 1 --run 0\n\n" + text
			if c.Failure == nil || c.Failure.Text != want || c.Failure.Message != summary.Summary {
				t.Errorf("%s: %+v, want the text\n%s", c.Name, c.Failure, want)
			}
		case c.Skipped == nil:
			t.Errorf("%s: %s, want skipped: the simulation stopped at its first run", c.Name, outcome(c))
		}
	}
}

// A simulation with no violation passes its properties as sampled
// evidence; one stopped by its time limit has errors instead.
func TestJUnitOfASimulationWithoutViolation(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "report.xml")
	if code, out, errs := mc(t, ctx, "simulate", "changroberts", "--n", "4", "--runs", "20", "--junit", path); code != exitPass {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	r := readJUnit(t, path)
	if r.Tests == 0 || r.Failures+r.Errors+r.Skipped != 0 || !strings.Contains(r.Suites[0].Cases[0].SystemOut, "no violation in 20 runs") {
		t.Fatalf("report %+v: %+v", r.Counts, r.Suites)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if code, out, errs := mc(t, cancelled, "simulate", "changroberts", "--n", "4", "--runs", "20", "--junit", path); code != exitIncomplete {
		t.Fatalf("interrupted: exit %d\n%s%s", code, out, errs)
	}
	r = readJUnit(t, path)
	for _, c := range r.Suites[0].Cases {
		if c.Error == nil && c.Failure == nil {
			t.Errorf("interrupted simulation: %s is %s, want an error", c.Name, outcome(c))
		}
	}
}

// A --junit path that cannot be written is refused before the run: exit 2,
// one line, nothing on stdout.
func TestJUnitBadPathIsRefusedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "no", "such", "r.xml"), dir} {
		for _, args := range [][]string{
			{"check", "changroberts", "--n", "3"},
			{"check", "changroberts", "--n", "3", "--all-ids"},
			{"simulate", "changroberts", "--n", "3"},
			{"ci"},
		} {
			code, out, errs := mc(t, context.Background(), append(args, "--junit", path)...)
			if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--junit") {
				t.Errorf("%v --junit %s: exit %d, stdout %q, stderr %q", args, path, code, out, errs)
			}
		}
	}
}

// mc ci stopped before any comparison, here by a run store it cannot use,
// reports an error, not an empty pass.
func TestJUnitOfCIStoppedBeforeAnyRow(t *testing.T) {
	dir := t.TempDir()
	notStore, path := filepath.Join(dir, "file"), filepath.Join(dir, "report.xml")
	if err := os.WriteFile(notStore, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := mc(t, context.Background(), "ci", "--db", notStore, "--junit", path)
	if code != exitUsage || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if r := readJUnit(t, path); r.Tests != 1 || r.Errors != 1 || !strings.Contains(r.Suites[0].Cases[0].Error.Message, "exit 2") {
		t.Fatalf("report %+v: %+v", r.Counts, r.Suites)
	}
}

// The report replaces what was at its path, a symlink included, never
// writing through it, and leaves no temporary file beside it.
func TestJUnitReplacesASymlinkInsteadOfWritingThroughIt(t *testing.T) {
	dir := t.TempDir()
	target, path := filepath.Join(dir, "target"), filepath.Join(dir, "report.xml")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if code, _, errs := mc(t, context.Background(), "check", "changroberts", "--n", "3", "--junit", path); code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("the symlink's target was written: %q", data)
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		t.Errorf("%s is not a regular file: %v", path, err)
	}
	readJUnit(t, path)
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries in the directory, want the target and the report", len(entries))
	}
}
