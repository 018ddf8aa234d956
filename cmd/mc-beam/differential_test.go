//go:build !race

package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/specs"
)

// differentialN is the ring size of TestCheckIsMcChecks: every spec takes
// it, and each variant's search is a few pipelines' work.
const differentialN = 3

// shortCases are the spec variants TestCheckIsMcChecks runs under
// go test -short: misra mod-n, whose invariant fails in a state found at
// level 14 (mc-beam once judged states only when it expanded them, and
// stopped a level late with 8301 states where mc check has 6134), and
// changroberts raynal-literal, whose end property fails in a terminal
// state, known only once that state is expanded.
var shortCases = map[string]bool{"misra/mod-n": true, "changroberts/raynal-literal": true}

// variantFlags are the flags a variant cannot go without: vitanyi's
// scaled variant reads its clock ratio off --drift, and both commands
// refuse it without.
var variantFlags = map[string][]string{"vitanyi/scaled": {"--drift", "1"}}

// TestCheckIsMcChecks: on every registered spec and each of its
// variants, mc-beam check --safety finds mc check --safety's states,
// transitions, terminal states and depth, stops where it stops, and
// gives each property its verdict (docs/scale-out.md).
func TestCheckIsMcChecks(t *testing.T) {
	ran := 0
	for _, e := range specs.All() {
		for _, v := range e.Variants {
			name := e.Name + "/" + v.Name
			t.Run(name, func(t *testing.T) {
				if testing.Short() && !shortCases[name] {
					t.Skip("go test without -short compares every spec variant")
				}
				ran++
				args := []string{"check", e.Name, "--variant", v.Name, "--n", fmt.Sprint(differentialN), "--safety", "--json"}
				args = append(args, variantFlags[name]...)
				wantCode, wantOut := mc(t, args...)
				code, out, errs := mcBeam(t, append(args, "--shards", "2")...)
				if code != wantCode || code == exitUsage {
					t.Fatalf("exit %d, mc check's %d: %s%s", code, wantCode, out, errs)
				}
				var want checkjson.Result
				if err := json.Unmarshal([]byte(wantOut), &want); err != nil {
					t.Fatalf("mc check --json: %v: %s", err, wantOut)
				}
				var got checkJSON
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("mc-beam check --json: %v: %s", err, out)
				}
				if got.Verdict != want.Verdict || int64(got.States) != want.States || int64(got.Transitions) != want.Transitions ||
					int64(got.Terminal) != want.Terminal || got.Depth != want.Depth || got.Stopped != want.StoppedAtViolation {
					t.Errorf("mc-beam check: %s, %d states, %d transitions, %d terminal, depth %d, stopped %v; mc check: %s, %d, %d, %d, depth %d, stopped %v",
						got.Verdict, got.States, got.Transitions, got.Terminal, got.Depth, got.Stopped,
						want.Verdict, want.States, want.Transitions, want.Terminal, want.Depth, want.StoppedAtViolation)
				}
				if !maps.Equal(got.Properties, want.Properties) {
					t.Errorf("mc-beam check's verdicts %v, mc check's %v", got.Properties, want.Properties)
				}
			})
		}
	}
	if want := len(shortCases); testing.Short() && ran != want {
		t.Errorf("ran %d short cases, want %d: a spec or variant of shortCases is gone", ran, want)
	}
}
