package cli

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// impure is a spec that breaks model.System's contract: its Do reads a
// counter outside the state, so the fourth and later increments add 2. The
// explorer sees 0 → 1 → 2 → 3; a trace to x = 2, replayed afterwards,
// reaches x = 4 instead. Variant "invariant" claims x ≠ 2, "witness" looks
// for x = 2: both verdicts rest on a trace that does not replay.
func impure(p model.Params) (*model.System[int], error) {
	calls := 0
	sys := counterSystem("impure", p, model.Rule[int]{Name: "inc",
		Guard: func(x *int, _ int) bool { return *x < 3 },
		Do: func(x *int, _, _ int) bool {
			calls++
			*x += 1 + min(calls/4, 1)
			return true
		}})
	if p.Variant == "witness" {
		sys.Props = append(sys.Props, model.WitnessProp("two", "", "x reaches 2", func(x *int) bool { return *x == 2 }))
	} else {
		sys.Props = append(sys.Props, model.InvariantProp("not-two", "", "x never 2", func(x *int) bool { return *x != 2 }))
	}
	return sys, nil
}

func withImpureSpec(t *testing.T) {
	entry := specs.Of(specdef.Spec[int]{Info: specdef.Info{Name: "impure", Defaults: specdef.Defaults{N: 2}, Takes: specdef.IDs,
		Variants: []model.Variant{{Name: "invariant"}, {Name: "witness"}},
		Source:   fstest.MapFS{"impure.go": {Data: []byte("package impure\n")}}}, Build: impure})
	t.Cleanup(func() { lookupSpec = specs.Lookup })
	lookupSpec = func(name string) (specs.Entry, error) {
		if name == "impure" {
			return entry, nil
		}
		return specs.Lookup(name)
	}
}

// A trace that does not replay is an internal error, exit 4 with a request
// for a bug report, and never a verdict: for a failing invariant, a witness
// found, with --all-ids, and with --json.
func TestTraceThatDoesNotReplayIsAnInternalError(t *testing.T) {
	withImpureSpec(t)
	for _, args := range [][]string{
		{"check", "impure", "--variant", "invariant"},
		{"check", "impure", "--variant", "witness"},
		{"check", "impure", "--variant", "invariant", "--json"},
		{"check", "impure", "--variant", "witness", "--all-ids", "--n", "3"},
		{"check", "impure", "--variant", "invariant", "--workers", "2", "--exact"},
	} {
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitInternal || !strings.Contains(errs, "does not replay") && !strings.Contains(errs, "replay ends in state") ||
			!strings.Contains(errs, "please report it") || strings.Contains(out, "verdict") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
		}
	}
}

// --max-memory stops a run that passes it with incomplete, exit 3, and says
// where it stopped; a bad size is a one-line usage error.
func TestMaxMemory(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "7", "--max-memory", "1MiB")
	if code != exitIncomplete || !strings.Contains(out, "verdict: incomplete (memory limit 1.0 MiB reached") ||
		!strings.Contains(out, "states, expanding depth") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "7", "--all-ids", "--max-memory", "1MiB")
	if code != exitIncomplete || !strings.Contains(out, "verdict: incomplete") {
		t.Fatalf("--all-ids: exit %d, output:\n%s", code, out)
	}
	for _, bad := range []string{"0", "-5MiB", "lots", "12XB", "99999999999GiB"} {
		code, _, errs := mc(t, context.Background(), "check", "changroberts", "--max-memory", bad)
		if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--max-memory") {
			t.Errorf("--max-memory %s: exit %d, stderr %q", bad, code, errs)
		}
	}
}

// Sizes whose setup alone would exhaust memory are refused before any
// allocation: vlt's 2^n orientation assignments, --all-ids's n!
// arrangements. (Found by fuzzing the flags: both used to crash or hang.)
func TestHugeSetupsAreRefused(t *testing.T) {
	for _, args := range [][]string{
		{"check", "vlt", "--n", "40"},
		{"check", "changroberts", "--all-ids", "--n", "13"},
	} {
		code, _, errs := mc(t, context.Background(), args...)
		if code != exitUsage || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// SPIN's hash compaction dropped states without a word. mc says, at the end
// of every run, how likely a fingerprint collision hid a state, and --exact
// stores full states, so that the two counts can be compared.
func TestFingerprintCollisionIsReported(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "changroberts", "--n", "6", "--safety")
	if code != exitPass || !strings.Contains(out, "2206 distinct states") || !strings.Contains(out, "fingerprint collision probability ≤ ") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "6", "--safety", "--exact")
	if code != exitPass || !strings.Contains(out, "2206 distinct states") || !strings.Contains(out, "exact: full states stored, no fingerprint collision possible") {
		t.Fatalf("--exact: exit %d:\n%s", code, out)
	}
}
