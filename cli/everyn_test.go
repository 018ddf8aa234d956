package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/tokenring"
	"github.com/ringcheck/mc/tokentemplate"
)

// --every-n on a template spec claims every n with its theorem, in text
// and JSON.
func TestEveryNClaimsEverySizeByItsTheorem(t *testing.T) {
	code, out, errs := mc(t, context.Background(), "check", "tokenring", "--every-n")
	if code != exitPass || !strings.Contains(out, "holds for every n ≥ 2: cutoff 4 by Emerson and Namjoshi") ||
		!strings.Contains(out, "checked at n = 2..4") || !strings.Contains(out, "n = 4: pass, 96 states") {
		t.Fatalf("exit %d, %s%s", code, out, errs)
	}
	code, out, _ = mc(t, context.Background(), "check", "tokenhandshake", "--every-n", "--json")
	var sum everyNSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitPass || sum.Cutoff != 4 || len(sum.Sizes) != 3 ||
		!strings.HasPrefix(sum.Claim, "holds for every n ≥ 2: cutoff 4 by") {
		t.Fatalf("exit %d, %v, %s", code, err, out)
	}
}

// Every spec that is not a template, and every flag that would change
// what the theorem covers, is refused in one line, exit 2, naming why.
func TestEveryNRefusesWhereNoTheoremApplies(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "changroberts", "--every-n"}, "processes are not identical"},
		{[]string{"check", "suzukikasami", "--every-n"}, "chooses whom it goes to"},
		{[]string{"check", "hs", "--every-n"}, "chooses the direction"},
		{[]string{"check", "misra", "--every-n"}, "two tokens"},
		{[]string{"check", "tokenring", "--every-n", "--n", "5"}, "drop --n"},
		{[]string{"check", "tokenring", "--every-n", "--fair", "process"}, "drop --fair"},
		{[]string{"check", "tokenring", "--every-n", "--por"}, "cannot be combined with --por"},
	} {
		code, out, errs := mc(t, context.Background(), c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// A failure gives the size where it was found and its counterexample.
func TestEveryNFailureGivesItsSizeAndCounterexample(t *testing.T) {
	tmpl := *tokenring.Template
	tmpl.Props = []tokentemplate.Prop{{Name: "two-waiting-without-token", Ref: "test", Shape: tokentemplate.Never,
		Atoms: []tokentemplate.Atom{{States: []int{1}, Token: tokentemplate.Free}, {States: []int{1}, Token: tokentemplate.Free}}}}
	spec := tokenring.Spec
	spec.Template, spec.Build = &tmpl, tmpl.System
	t.Cleanup(func() { lookupSpec = specs.Lookup })
	lookupSpec = func(string) (specs.Entry, error) { return specs.Of(spec), nil }
	code, out, errs := mc(t, context.Background(), "check", "tokenring", "--every-n")
	if code != exitFail || !strings.Contains(out, "fails at n = 3: two-waiting-without-token") || !strings.Contains(out, "request p1") {
		t.Fatalf("exit %d, %s%s", code, out, errs)
	}
}

// An --every-n run travels like any check: recorded in the run store as
// one check of kind --every-n (its meaning says --every-n, its states are
// every size's), and its failure, at the size where it was found, written
// by --trace-out to a file that carries that size and replays.
func TestEveryNRecordsItsRunAndTracesTheFailureAtItsSize(t *testing.T) {
	tmpl := *tokenring.Template
	tmpl.Name = "tokenring-two-waiting"
	tmpl.Props = []tokentemplate.Prop{{Name: "two-waiting-without-token", Ref: "test", Shape: tokentemplate.Never,
		Atoms: []tokentemplate.Atom{{States: []int{1}, Token: tokentemplate.Free}, {States: []int{1}, Token: tokentemplate.Free}}}}
	spec := tokenring.Spec
	spec.Name, spec.Template, spec.Build = tmpl.Name, &tmpl, tmpl.System
	if err := specs.Use(true, specs.Of(spec)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = specs.Use(true) })
	dir := t.TempDir()
	trace, db := filepath.Join(dir, "fail.json"), filepath.Join(dir, "db")
	code, out, errs := mc(t, context.Background(), "check", tmpl.Name, "--every-n", "--trace-out", trace, "--db", db)
	if code != exitFail || !strings.Contains(out, "fails at n = 3: two-waiting-without-token") ||
		!strings.Contains(errs, "recorded as run 1") || !strings.Contains(errs, "wrote the counterexample to two-waiting-without-token") {
		t.Fatalf("exit %d, %s%s", code, out, errs)
	}
	tr, err := readTrace(trace)
	if err != nil || tr.Run.Params.N != 3 || tr.Property.Name != "two-waiting-without-token" {
		t.Fatalf("%v, %+v", err, tr)
	}
	code, out, errs = mc(t, context.Background(), "trace", trace, "--replay")
	if code != exitPass || !strings.Contains(out, "n=3") || !strings.Contains(out, "still reaches") {
		t.Fatalf("replay: exit %d, %s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "runs", "show", "1", "--db", db)
	if code != exitPass || !strings.Contains(out, "verdict fail, 48 states") ||
		!strings.Contains(out, "meaning: tokenring-two-waiting --variant seed --every-n") ||
		!strings.Contains(out, "the counterexample to two-waiting-without-token") {
		t.Fatalf("runs show: exit %d, %s%s", code, out, errs)
	}
}

// --junit gets a suite per size and the claim.
func TestEveryNWritesItsClaimToJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xml")
	code, _, errs := mc(t, context.Background(), "check", "tokenring", "--every-n", "--junit", path)
	data, err := os.ReadFile(path)
	if code != exitPass || err != nil || strings.Count(string(data), "<testsuite ") != 3 ||
		!strings.Contains(string(data), `name="every_n" value="holds for every n ≥ 2: cutoff 4 by Emerson and Namjoshi`) {
		t.Fatalf("exit %d, %v %s\n%s", code, err, errs, data)
	}
}

// A spec that keeps its template but builds something else is refused,
// not checked: a process that reads its index (p0 passes the token on
// while it waits) or a token that chooses its way (leave sends it to
// either neighbour) cannot be written in the template, and the theorem
// does not cover them.
func TestEveryNRefusesASpecThatIsNotItsTemplate(t *testing.T) {
	mutate := func(f func(sys *model.System[tokenring.State])) specs.Entry {
		spec := tokenring.Spec
		spec.Build = func(p model.Params) (*model.System[tokenring.State], error) {
			sys, err := tokenring.New(p)
			if err == nil {
				f(sys)
			}
			return sys, err
		}
		return specs.Of(spec)
	}
	readsIndex := mutate(func(sys *model.System[tokenring.State]) {
		pass := &sys.Rules[3]
		guard := pass.Guard
		pass.Guard = func(s *tokenring.State, i int) bool {
			return guard(s, i) || (i == 0 && s.Token == 0 && s.Local[0] == 1)
		}
	})
	choosesWay := mutate(func(sys *model.System[tokenring.State]) {
		leave := &sys.Rules[2]
		leave.Choices = func(*tokenring.State, int) int { return 2 }
		leave.Do = func(s *tokenring.State, i, k int) bool {
			s.Local[i], s.Token = 0, (i+1+k*(len(s.Local)-2))%len(s.Local)
			return true
		}
	})
	t.Cleanup(func() { lookupSpec = specs.Lookup })
	for name, e := range map[string]specs.Entry{"reads its index": readsIndex, "chooses its way": choosesWay} {
		lookupSpec = func(string) (specs.Entry, error) { return e, nil }
		code, out, errs := mc(t, context.Background(), "check", "tokenring", "--every-n")
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "the theorem covers the template only") {
			t.Errorf("%s: exit %d, %q %q", name, code, out, errs)
		}
	}
}
