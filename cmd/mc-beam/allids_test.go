//go:build !race

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/allids"
	"github.com/ringcheck/mc/cli"
	"github.com/ringcheck/mc/tracefile"
)

// mc runs mc's command line in this process, without a run store.
func mc(t *testing.T, args ...string) (code int, stdout string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = cli.Run(context.Background(), append(args, "--no-db"), &out, &errs)
	return code, out.String()
}

// TestCheckAllIDsIsMcChecks: mc-beam check --all-ids makes mc check
// --all-ids's rows, summary and verdict, text and JSON. hp's literal
// witness fails in some arrangements (1,3,4,2,5 is the first at n = 5),
// so the run stops there without --continue, and checks every class
// with it.
func TestCheckAllIDsIsMcChecks(t *testing.T) {
	args := []string{"check", "hp", "--variant", "witness-literal", "--n", "5", "--safety", "--all-ids"}
	for _, extra := range [][]string{nil, {"--continue"}} {
		if testing.Short() && extra != nil {
			continue
		}
		args := append(args, extra...)
		code, out, errs := mcBeam(t, append(args, "--json")...)
		wantCode, want := mc(t, append(args, "--json")...)
		if code != exitFail || wantCode != exitFail {
			t.Fatalf("%v: exit %d (mc: %d), want 1: %s", extra, code, wantCode, errs)
		}
		var got, sum allids.Summary
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(want), &sum); err != nil {
			t.Fatal(err)
		}
		if out != want {
			t.Errorf("%v: mc-beam check --all-ids --json:\n%s\nwant mc's:\n%s", extra, out, want)
		}
		if sum.Classes != 24 || sum.StoppedAtViolation != (extra == nil) || (extra == nil) != (len(sum.Rows) == 9) {
			t.Errorf("%v: %d classes, %d checked, stopped %v; want 24 classes, 9 checked without --continue", extra, sum.Classes, len(sum.Rows), sum.StoppedAtViolation)
		}
	}
	code, out, errs := mcBeam(t, args...)
	_, want := mc(t, args...)
	if code != exitFail {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	// The same lines up to the failing class's run, which each command
	// prints its own way, and the same verdict.
	head, _, _ := strings.Cut(out, "\nfirst failing arrangement:\n")
	wantHead, _, _ := strings.Cut(want, "\nfirst failing arrangement:\n")
	if head != strings.Replace(wantHead, "mc check ", "mc-beam check ", 1) || !strings.HasSuffix(out, "\nverdict: fail\n") {
		t.Errorf("mc-beam check --all-ids:\n%s\nwant mc check --all-ids's:\n%s", out, want)
	}
	if !strings.Contains(out, "\nfirst failing arrangement:\nhp witness-literal n=5 ids=1,3,4,2,5: fail\n") {
		t.Errorf("mc-beam check --all-ids does not print the failing class's run:\n%s", out)
	}
}

// TestCheckAllIDsRefusals: what --all-ids refuses in mc check, mc-beam
// refuses in the same words, before any pipeline.
func TestCheckAllIDsRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--ids", "1,2,3"}, "--all-ids cannot be combined with --ids: "},
		{[]string{"--initiators", "0"}, "--all-ids cannot be combined with --initiators: "},
		{[]string{"--trace-out", "t.json"}, "--all-ids cannot be combined with --trace-out: "},
		{[]string{"--n", "11"}, "--all-ids at n=11 would enumerate 11! arrangements; it takes n ≤ 10"},
	} {
		args := append([]string{"check", "changroberts", "--safety", "--all-ids"}, c.args...)
		code, out, errs := mcBeam(t, args...)
		if code != exitUsage || out != "" || errs != "mc-beam check: "+strings.TrimPrefix(errs, "mc-beam check: ") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("mc-beam %s: exit %d, stderr %q; want exit 2 and one line with %q", strings.Join(args, " "), code, errs, c.want)
		}
		var mcErrs bytes.Buffer
		cli.Run(context.Background(), append(args, "--no-db"), &bytes.Buffer{}, &mcErrs)
		if strings.TrimPrefix(mcErrs.String(), "mc check: ") != strings.TrimPrefix(errs, "mc-beam check: ") {
			t.Errorf("mc-beam %s: %q, mc check: %q", strings.Join(c.args, " "), errs, mcErrs.String())
		}
	}
}

// TestCheckContinueIsMcChecks: Raynal's literal Hirschberg–Sinclair
// fails election-complete at depth 6 at n = 3 (505 states); --continue
// explores all 1,491 states to depth 20, as mc check --continue does, and
// the trace is still the failure of the first level where it fails.
func TestCheckContinueIsMcChecks(t *testing.T) {
	for _, c := range []struct {
		extra                      []string
		states, transitions, depth int
	}{{nil, 505, 1191, 6}, {[]string{"--continue"}, 1491, 4897, 20}} {
		path := filepath.Join(t.TempDir(), "t.json")
		args := append([]string{"check", "hs", "--variant", "raynal-literal", "--n", "3", "--safety", "--json"}, c.extra...)
		code, out, errs := mcBeam(t, append(args, "--trace-out", path)...)
		if code != exitFail {
			t.Fatalf("%v: exit %d, want 1: %s%s", c.extra, code, out, errs)
		}
		var got checkJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		_, want := mc(t, args...)
		var mcJSON struct {
			States, Transitions, Depth int
			Properties                 map[string]string
		}
		if err := json.Unmarshal([]byte(want), &mcJSON); err != nil {
			t.Fatal(err)
		}
		if got.States != c.states || got.Transitions != c.transitions || got.Depth != c.depth ||
			mcJSON.States != c.states || mcJSON.Transitions != c.transitions || mcJSON.Depth != c.depth {
			t.Errorf("%v: mc-beam %d states, %d transitions, depth %d; mc %d, %d, %d; want %d, %d, %d", c.extra,
				got.States, got.Transitions, got.Depth, mcJSON.States, mcJSON.Transitions, mcJSON.Depth, c.states, c.transitions, c.depth)
		}
		for name, v := range mcJSON.Properties {
			if got.Properties[name] != v && !(v == "not-checked" && got.Properties[name] == "not checked") {
				t.Errorf("%v: %s is %s, mc check's %s", c.extra, name, got.Properties[name], v)
			}
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := tracefile.Read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		sys, err := tracefile.Target(tr)
		if err != nil {
			t.Fatal(err)
		}
		if o := tracefile.Replay(tr, sys); tr.Property.Name != "election-complete" || len(tr.Steps) != 6 || tr.Run.Continue != (c.extra != nil) || !o.Reached {
			t.Errorf("%v: trace of %s, %d steps, continue %v, replays %v; want election-complete's 6 steps", c.extra, tr.Property.Name, len(tr.Steps), tr.Run.Continue, o.Reached)
		}
	}
}

// flagLine is a flag's line in pflag's help: its name and its text.
var flagLine = regexp.MustCompile(`^\s+(?:-\w, )?--([\w-]+)(?: \S+)?\s{2,}(.*)$`)

// helpTexts maps each flag of a command's help to its text.
func helpTexts(help string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(help, "\n") {
		if m := flagLine.FindStringSubmatch(line); m != nil {
			out[m[1]] = m[2]
		}
	}
	return out
}

// TestSharedFlagsHaveMcsHelp: the flags mc-beam shares with mc (package
// cmdflags, specs/paramflags, runstore/dbflags) say the same in both
// commands' help, which mc-beam prints once (it printed it twice).
func TestSharedFlagsHaveMcsHelp(t *testing.T) {
	for _, c := range []struct {
		cmd    string
		shared []string
	}{
		{"check", []string{"n", "ids", "variant", "param", "continue", "fail-vacuous", "safety", "all-ids", "json"}},
		{"sweep", []string{"n", "ids", "variant", "json", "out", "drift", "param", "max-states", "timeout", "db", "no-db", "fresh"}},
	} {
		_, beamHelp, _ := mcBeam(t, c.cmd, "--help")
		if n := strings.Count(beamHelp, "usage: mc-beam "); n != 1 {
			t.Errorf("mc-beam %s --help prints its usage %d times", c.cmd, n)
		}
		var mcHelp bytes.Buffer
		cli.Run(context.Background(), []string{c.cmd, "--help"}, &mcHelp, &bytes.Buffer{})
		beam, mcs := helpTexts(beamHelp), helpTexts(mcHelp.String())
		for _, name := range c.shared {
			if beam[name] == "" || beam[name] != mcs[name] {
				t.Errorf("%s --%s: mc-beam says %q, mc %q", c.cmd, name, beam[name], mcs[name])
			}
		}
	}
}
