package everyn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/tokenhandshake"
	"github.com/ringcheck/mc/specs/tokenring"
	tt "github.com/ringcheck/mc/tokentemplate"
)

var opt = checker.Options{Workers: 1}

// The template specs hold for every n: cutoff 4 (mutual exclusion has two
// indices), checked at n = 2, 3, 4 with the counts their packages derive
// (n·3·2^(n-1) and n·5·3^(n-1) states).
func TestTheTemplateSpecsHoldForEveryN(t *testing.T) {
	for _, c := range []struct {
		tmpl   *tt.Template
		states []int64
	}{{tokenring.Template, []int64{12, 36, 96}}, {tokenhandshake.Template, []int64{30, 135, 540}}} {
		r, err := Check(context.Background(), c.tmpl, nil, model.Params{}, opt)
		if err != nil || r.Verdict != checker.Pass || r.Cutoff.Size != 4 || len(r.Sizes) != 3 {
			t.Fatalf("%s: %v, %+v", c.tmpl.Name, err, r)
		}
		for i, sz := range r.Sizes {
			if sz.N != i+2 || sz.States != c.states[i] {
				t.Errorf("%s: size %+v, want n = %d with %d states", c.tmpl.Name, sz, i+2, c.states[i])
			}
		}
	}
}

// verdicts gives, per template property, its verdict at ring size n in the
// theorems' semantics: fail if an instance fails (a liveness one on a run
// that passes the token round), pass if every instance passes, and
// incomplete otherwise.
func verdicts(t *testing.T, tmpl *tt.Template, n int) map[string]checker.Verdict {
	t.Helper()
	sys, err := tmpl.System(model.Params{N: n})
	if err != nil {
		t.Fatal(err)
	}
	r := checker.Of(sys).Check(context.Background(), checker.Options{Workers: 1, Fair: model.FairNone, Continue: true})
	if r.Verdict == checker.Incomplete || r.Err != nil {
		t.Fatalf("%s n=%d: %s %v", tmpl.Name, n, r.Reason, r.Err)
	}
	out := map[string]checker.Verdict{}
	for _, p := range tmpl.Props {
		out[p.Name] = checker.Pass
	}
	for _, pr := range r.Props {
		name := pr.Name
		if i := strings.LastIndex(name, "-p"); i > 0 && out[name] == "" {
			name = name[:i]
		}
		switch {
		case pr.Verdict == checker.Pass:
		case !pr.Kind.Liveness() || TokenFair(tmpl, n, pr.Trace):
			out[name] = checker.Fail
		case out[name] == checker.Pass:
			out[name] = checker.Incomplete
		}
	}
	return out
}

// randomTemplate draws a template of 2 or 3 local states, 2 to 4 actions
// and one property of each shape. With acyclic set, every move that does
// not send goes up the order of local states, so no process acts for ever
// without sending the token, and every infinite run passes it round the
// ring: liveness is then decided at every size. Without it, a process
// without the token may move for ever (Validate refuses a holder that
// can).
func randomTemplate(rng *rand.Rand, acyclic bool) *tt.Template {
	for {
		s := 2 + rng.IntN(2)
		tmpl := &tt.Template{Name: "random", Var: "l"}
		for i := range s {
			tmpl.States = append(tmpl.States, fmt.Sprintf("s%d", i))
		}
		for a := range 2 + rng.IntN(3) {
			act := tt.Action{Name: fmt.Sprintf("a%d", a), Token: tt.Token(rng.IntN(3)), Env: rng.IntN(3) == 0}
			act.Sends = act.Token == tt.Held && rng.IntN(2) == 0
			for from := range s {
				for to := range s {
					if rng.IntN(3) == 0 && (!acyclic || act.Sends || from < to) {
						act.Moves = append(act.Moves, tt.Move{From: from, To: to})
					}
				}
			}
			tmpl.Actions = append(tmpl.Actions, act)
		}
		atom := func() tt.Atom {
			a := tt.Atom{Token: tt.Token(rng.IntN(3))}
			for st := range s {
				if rng.IntN(2) == 0 {
					a.States = append(a.States, st)
				}
			}
			return a
		}
		tmpl.Props = []tt.Prop{
			{Name: "never2", Shape: tt.Never, Atoms: []tt.Atom{atom(), atom()}},
			{Name: "always", Shape: tt.Always, Atoms: []tt.Atom{atom()}},
			{Name: "reach", Shape: tt.Reachable, Atoms: []tt.Atom{atom()}},
			{Name: "leads", Shape: tt.LeadsTo, Atoms: []tt.Atom{atom(), atom()}},
			{Name: "next", Shape: tt.NeverNeighbours, Atoms: []tt.Atom{atom(), atom()}},
		}
		if tmpl.Validate() == nil {
			return tmpl
		}
	}
}

// Differential test of the theorem as mc applies it: for the template
// specs and random templates, each property's verdict at its own cutoff
// (2 for one index, 3 for a process and its successor, 4 for two
// distinct processes) is its verdict at every size from there to the
// template's cutoff + 4 (+ 1 with -short), and Check's verdict is the
// conjunction of the sizes 2 up to the template's cutoff: a pass passes
// at every size checked, a failure is a real one at the size it names.
func TestCutoffVerdictAgreesWithLargerRings(t *testing.T) {
	above, random := 4, 30
	if testing.Short() {
		above, random = 1, 8
	}
	rng := rand.New(rand.NewPCG(37, 2004))
	tmpls := []*tt.Template{tokenring.Template, tokenhandshake.Template}
	for i := range random {
		tmpls = append(tmpls, randomTemplate(rng, i%2 == 0))
	}
	decided, holding, failed := 0, 0, 0
	byCutoff := map[int]int{}
	for ti, tmpl := range tmpls {
		r, err := Check(context.Background(), tmpl, nil, model.Params{}, opt)
		if err != nil {
			t.Fatalf("template %d: %v", ti, err)
		}
		c := r.Cutoff.Size
		at := map[int]map[string]checker.Verdict{}
		for n := 2; n <= c+above; n++ {
			at[n] = verdicts(t, tmpl, n)
		}
		for _, p := range tmpl.Props {
			pc, err := p.CutoffOf()
			if err != nil {
				t.Fatal(err)
			}
			w := at[pc.Size][p.Name]
			for n := pc.Size + 1; n <= c+above; n++ {
				if v := at[n][p.Name]; v != checker.Incomplete && w != checker.Incomplete {
					decided++
					byCutoff[pc.Size]++
					if v == checker.Pass {
						holding++
					}
					if v != w {
						t.Errorf("template %d (%+v): %s is %s at its cutoff %d, %s at n = %d", ti, tmpl, p.Name, w, pc.Size, v, n)
					}
				}
			}
		}
		switch r.Verdict {
		case checker.Pass:
			for n := 2; n <= c; n++ {
				for name, v := range at[n] {
					if v != checker.Pass {
						t.Errorf("template %d: Check passes, %s is %s at n = %d", ti, name, v, n)
					}
				}
			}
		case checker.Fail:
			failed++
			n := r.Failed.Params.N
			if v := verdicts(t, tmpl, n); v[strings.TrimRight(strings.TrimRight(r.Property, "0123456789"), "-p")] != checker.Fail && v[r.Property] != checker.Fail {
				t.Errorf("template %d: Check fails %s at n = %d, which the run there does not", ti, r.Property, n)
			}
		}
	}
	t.Logf("%d verdicts compared above the cutoffs (%v by cutoff), %d of them passes; %d of %d templates fail", decided, byCutoff, holding, failed, len(tmpls))
	if holding == 0 || holding == decided || failed == 0 || failed == len(tmpls) || byCutoff[3] == 0 {
		t.Errorf("%d verdicts compared, %d of %d templates fail: the random templates test nothing", decided, failed, len(tmpls))
	}
}

// A neighbour property that fails only in rings of 3 or more is found at
// its cutoff 3: "never a waiting process without the token next to an
// idle one without it" needs a third process to hold the token, so n = 2
// passes and n = 3 fails.
func TestANeighbourFailureOnlyInLargerRingsIsFoundByItsCutoff(t *testing.T) {
	tmpl := *tokenring.Template
	tmpl.Props = []tt.Prop{{Name: "waiting-next-to-idle", Shape: tt.NeverNeighbours,
		Atoms: []tt.Atom{{States: []int{1}, Token: tt.Free}, {States: []int{0}, Token: tt.Free}}}}
	r, err := Check(context.Background(), &tmpl, nil, model.Params{}, opt)
	if err != nil || r.Cutoff.Size != 3 || r.Verdict != checker.Fail || r.Failed.Params.N != 3 ||
		r.Sizes[0].Verdict != checker.Pass || !strings.Contains(r.Cutoff.Theorem, "∀i f(i, i+1)") {
		t.Fatalf("%v, %+v", err, r)
	}
}

// A property that fails only in rings larger than 2 is found at or below
// the cutoff: "never two processes waiting, neither holding the token"
// (two indices, cutoff 4) holds at n = 2, where one of the two holds it,
// and fails at n = 3.
func TestAFailureOnlyInLargerRingsIsFoundByTheCutoff(t *testing.T) {
	tmpl := *tokenring.Template
	tmpl.Props = []tt.Prop{{Name: "two-waiting-without-token", Shape: tt.Never,
		Atoms: []tt.Atom{{States: []int{1}, Token: tt.Free}, {States: []int{1}, Token: tt.Free}}}}
	r, err := Check(context.Background(), &tmpl, nil, model.Params{}, opt)
	if err != nil || r.Verdict != checker.Fail || r.Failed.Params.N != 3 || r.Property != "two-waiting-without-token" ||
		r.Sizes[0].Verdict != checker.Pass {
		t.Fatalf("%v, %+v", err, r)
	}
}

// Templates that break a hypothesis are refused, never checked: each
// error names what fails.
func TestBrokenHypothesesAreRefused(t *testing.T) {
	base := func() tt.Template {
		c := *tokenring.Template
		c.Actions = append([]tt.Action(nil), c.Actions...)
		return c
	}
	sendsWithout := base()
	sendsWithout.Actions[0].Sends = true // request sends a token it may not hold
	stuck := base()
	stuck.Actions = stuck.Actions[:3] // no pass, and only a process without
	stuck.Actions[0].Token = tt.Free  // the token asks: an idle holder keeps it
	keeps := base()                   // a holder may wait, and wait again, for ever
	keeps.Actions = append(keeps.Actions, tt.Action{Name: "dawdle", Token: tt.Held, Moves: []tt.Move{{From: 1, To: 1}}})
	in := tt.Atom{States: []int{2}}
	threeIndices, fourIndices := base(), base()
	threeIndices.Props = []tt.Prop{{Name: "three", Shape: tt.Never, Atoms: []tt.Atom{in, in, in}}}
	fourIndices.Props = []tt.Prop{{Name: "four", Shape: tt.Never, Atoms: []tt.Atom{in, in, in, in}}}
	none := base()
	none.Props = nil
	for _, c := range []struct {
		tmpl tt.Template
		want string
	}{
		{sendsWithout, "token passing only"},
		{stuck, "has no action, so it keeps the token"},
		{keeps, "can move for ever without passing it on"},
		{threeIndices, "quantifies over 3 distinct processes"},
		{fourIndices, "quantifies over 4 distinct processes"},
		{none, "no properties"},
	} {
		r, err := Check(context.Background(), &c.tmpl, nil, model.Params{}, opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || len(r.Sizes) != 0 {
			t.Errorf("%s: %v, %+v", c.want, err, r)
		}
	}
}

// A lasso whose loop does not pass the token round the ring is not one of
// the theorems' runs: a template whose waiting process may wait for ever
// while it lacks the token (a local loop) fails request-granted without
// fairness only on such a run, and Check leaves it undecided rather than
// failing or passing it.
func TestAnUnfairCounterexampleLeavesTheVerdictOpen(t *testing.T) {
	tmpl := *tokenring.Template
	tmpl.Actions = append(append([]tt.Action(nil), tmpl.Actions...),
		tt.Action{Name: "dawdle", Token: tt.Free, Moves: []tt.Move{{From: 1, To: 1}}})
	r, err := Check(context.Background(), &tmpl, nil, model.Params{}, opt)
	if err != nil || r.Verdict != checker.Incomplete || !strings.Contains(r.Reason, "does not pass the token round") {
		t.Fatalf("%v, %+v", err, r)
	}
}

// Every registered spec either is a template whose Build builds it (the
// same states, transitions and verdicts at n = 2..4, which --every-n
// relies on when it checks the template) or has its reason for refusal.
func TestEveryRegisteredSpecIsATemplateOrSaysWhyNot(t *testing.T) {
	for _, e := range specs.All() {
		if e.Template == nil {
			if _, ok := NotCovered[e.Name]; !ok {
				t.Errorf("spec %s: neither a template nor in NotCovered", e.Name)
			}
			continue
		}
		for n := 2; n <= 4; n++ {
			tg, err := e.Build(model.Params{N: n, IDs: ring.DescendingIDs(n)})
			if err != nil {
				t.Fatal(err)
			}
			sys, err := e.Template.System(model.Params{N: n})
			if err != nil {
				t.Fatal(err)
			}
			a, b := tg.Check(context.Background(), opt), checker.Of(sys).Check(context.Background(), opt)
			if a.States != b.States || a.Transitions != b.Transitions || a.Verdict != b.Verdict || len(a.Props) != len(b.Props) {
				t.Errorf("spec %s n=%d: Build gives %s %d states %d transitions, its template %s %d %d",
					e.Name, n, a.Verdict, a.States, a.Transitions, b.Verdict, b.States, b.Transitions)
			}
		}
	}
}
