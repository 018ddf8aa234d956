//go:build !race

package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checkjson"
)

// vacuousOf decodes a check's --json and gives its vacuous passes, each
// with what never happened, in the spec's order.
func vacuousOf(t *testing.T, out string) (verdict string, vacuous []string) {
	t.Helper()
	var r struct {
		Verdict string
		Details []checkjson.Prop `json:"property_details"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, p := range r.Details {
		if p.Vacuous {
			vacuous = append(vacuous, p.Name+": "+p.Unmet)
		}
	}
	return r.Verdict, vacuous
}

// TestCheckVacuityIsMcChecks: mc-beam check and mc check agree on every
// property's vacuous flag and what never happened: on hp's claims (n = 5,
// whose ring never has an odd round that sends messages, nor a
// destroyer; one is a step property), on vlt's (some never reach a phase
// p ≥ 2) and on Chang–Roberts, none vacuous. With --fail-vacuous both
// fail such a run, exit 1, and still pass the one with no vacuous pass.
func TestCheckVacuityIsMcChecks(t *testing.T) {
	cases := []struct {
		args []string
		some bool // some property passes vacuously
	}{
		{[]string{"hp", "--claims"}, true},
		{[]string{"vlt", "--claims", "--n", "3"}, true},
		{[]string{"changroberts", "--n", "4"}, false},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			args []string
			some bool
		}{[]string{"vlt", "--claims"}, true})
	}
	for _, c := range cases {
		args := append([]string{"check"}, append(c.args, "--safety", "--json")...)
		code, out, errs := mcBeam(t, append(args, "--shards", "3")...)
		wantCode, want := mc(t, args...)
		if code != exitPass || wantCode != exitPass {
			t.Fatalf("%v: exit %d (mc: %d), want 0: %s", c.args, code, wantCode, errs)
		}
		_, got := vacuousOf(t, out)
		_, wantVacuous := vacuousOf(t, want)
		if !slices.Equal(got, wantVacuous) || (len(got) > 0) != c.some {
			t.Errorf("%v: mc-beam's vacuous passes %q, mc's %q", c.args, got, wantVacuous)
		}
		if c.some && !strings.Contains(out, `"vacuous": true`) {
			t.Errorf("%v: JSON marks no vacuous pass:\n%s", c.args, out)
		}
		code, out, errs = mcBeam(t, append(args, "--shards", "2", "--fail-vacuous")...)
		wantCode, want = mc(t, append(args, "--fail-vacuous")...)
		verdict, got := vacuousOf(t, out)
		wantVerdict, _ := vacuousOf(t, want)
		wantExit := exitPass
		if c.some {
			wantExit = exitFail
		}
		if code != wantExit || wantCode != wantExit || verdict != wantVerdict || !slices.Equal(got, wantVacuous) || !strings.Contains(out, `"fail_vacuous": true`) {
			t.Errorf("%v --fail-vacuous: exit %d, %s (mc: %d, %s), vacuous %q; want exit %d: %s", c.args, code, verdict, wantCode, wantVerdict, got, wantExit, errs)
		}
	}
}

// TestCheckVacuityText: the text marks a vacuous pass as mc check does,
// and under --fail-vacuous a failure.
func TestCheckVacuityText(t *testing.T) {
	code, out, errs := mcBeam(t, "check", "hp", "--claims", "--safety", "--shards", "2")
	if code != exitPass {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	for _, want := range []string{"\n  vacuous    lemma-2-destroyer-distance step\n             pass (vacuous: ",
		"\n  vacuous (the situation they speak of never arose, so this run did not test them): theorem-1-odd-round-messages, lemma-2-destroyer-distance; --fail-vacuous makes that a failure\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = mcBeam(t, "check", "hp", "--claims", "--safety", "--shards", "2", "--fail-vacuous")
	if code != exitFail || !strings.Contains(out, "ids=5,4,3,2,1: fail\n") || !strings.Contains(out, "\n  fail       lemma-2-destroyer-distance step\n             fail (vacuous: ") {
		t.Errorf("--fail-vacuous: exit %d:\n%s", code, out)
	}
}
