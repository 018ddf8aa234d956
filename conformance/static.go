package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/specs"
)

// Cites checks that every rule and property of every configuration of e
// names the source section it comes from (traces and mc list print it
// beside them), and that no two properties share a name (--prop, the JSON
// output and the tests name them).
func Cites(t *testing.T, e specs.Entry) {
	for name, p := range configurations(e, max(e.Defaults.N, 2)) {
		tg, err := e.Build(p)
		if err != nil {
			t.Errorf("%s %s: %v", e.Name, name, err)
			continue
		}
		for _, r := range tg.Info().Rules {
			if r.Ref == "" {
				t.Errorf("%s %s: rule %q names no source section", e.Name, name, r.Name)
			}
		}
		seen := map[string]bool{}
		for _, pr := range tg.Props() {
			if pr.Ref == "" {
				t.Errorf("%s %s: property %q cites nothing", e.Name, name, pr.Name)
			}
			if seen[pr.Name] {
				t.Errorf("%s %s: two properties are named %q", e.Name, name, pr.Name)
			}
			seen[pr.Name] = true
		}
	}
}

// Codec checks e's Copy, Encode and Decode (checker.CheckCodec) on the
// reachable states of every configuration, up to opt's state bound in
// breadth-first order.
func Codec(t *testing.T, e specs.Entry, opt Options) {
	for name, p := range configurations(e, opt.ringSize(e)) {
		t.Run(name, func(t *testing.T) {
			tg, err := e.Build(p)
			if err != nil {
				t.Fatal(err)
			}
			states, complete, err := tg.CheckCodec(context.Background(), opt.maxStates())
			if err != nil {
				t.Fatal(err)
			}
			if !complete {
				t.Logf("checked the first %d states", states)
			}
		})
	}
}

// Deterministic checks that a run's counts, verdicts and traces depend on
// neither the number of workers nor the run: each configuration is checked
// twice with one worker and once with two, and the three must agree.
func Deterministic(t *testing.T, e specs.Entry, opt Options) {
	for name, p := range configurations(e, opt.ringSize(e)) {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, workers := range []int{1, 1, 2} {
				tg, err := e.Build(p)
				if err != nil {
					t.Fatal(err)
				}
				r := tg.Check(context.Background(), checker.Options{Fair: e.Defaults.Fair, Workers: workers, MaxStates: int64(opt.maxStates()), Continue: true})
				if r.Err != nil {
					t.Fatal(r.Err)
				}
				if r.Reason != "" {
					t.Skipf("larger than %d states", opt.maxStates())
				}
				got = append(got, figures(&r))
			}
			if got[0] != got[1] || got[0] != got[2] {
				t.Fatalf("runs disagree:\none worker:  %s\nagain:       %s\ntwo workers: %s", got[0], got[1], got[2])
			}
		})
	}
}

// figures is what a run reports that must not depend on how it was run:
// its counts, and each property's verdict and trace.
func figures(r *checker.Result) string {
	s := fmt.Sprintf("%s states=%d transitions=%d terminal=%d depth=%d", r.Verdict, r.States, r.Transitions, r.Terminal, r.Depth)
	for _, p := range r.Props {
		s += fmt.Sprintf("; %s %s", p.Name, p.Verdict)
		if p.Trace != nil {
			tr, _ := json.Marshal(p.Trace)
			s += " " + string(tr)
		}
	}
	return s
}
