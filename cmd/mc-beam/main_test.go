// The race detector step of CI (go test -race -short ./...) leaves
// mc-beam out: instrumenting Beam and Prism for it costs many minutes of
// compilation (docs/scale-out.md), and go test ./... runs these tests.

//go:build !race

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
	"github.com/ringcheck/mc/tracefile"
)

// mcBeam runs mc-beam in this process, its pipelines on Prism.
func mcBeam(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestSweepIsMcSweeps: mc-beam sweep writes what mc sweep writes, byte
// for byte, on stdout (--json) and in --out: mc sweep's output is
// sweep.Run's rows through sweepout (cli/sweep.go).
func TestSweepIsMcSweeps(t *testing.T) {
	ns := "3..6"
	if testing.Short() {
		ns = "3..4"
	}
	dir := t.TempDir()
	code, got, errs := mcBeam(t, "sweep", "changroberts", "--n", ns, "--json", "--out", filepath.Join(dir, "beam"))
	if code != exitPass {
		t.Fatalf("mc-beam sweep: exit %d: %s", code, errs)
	}
	name, cfg, sizes, err := sweepout.Resolve(sweepout.Request{Spec: "changroberts", Ns: ns, IDs: "all", Changed: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	table := sweep.NewTable(name, cfg)
	for _, n := range sizes {
		row, err := sweep.Run(context.Background(), cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		table.Rows = append(table.Rows, row)
	}
	var want bytes.Buffer
	if err := sweepout.WriteJSON(&want, table); err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Errorf("mc-beam sweep --json differs from mc sweep's:\n%s\nwant:\n%s", got, want.String())
	}
	if err := sweepout.WriteDir(filepath.Join(dir, "mc"), table, runinfo.ThisBuild().Version); err != nil {
		t.Fatal(err)
	}
	sameTree(t, filepath.Join(dir, "mc"), filepath.Join(dir, "beam"))
}

// sameTree fails unless directories a and b hold the same files, byte
// for byte.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(a, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			t.Errorf("--out: %s differs from mc sweep's", rel)
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("mc sweep --out wrote no files")
	}
}

// TestCheckChangRobertsN8: mc check's counts at n = 8 (pinned in
// specs/changroberts), level by level on Prism.
func TestCheckChangRobertsN8(t *testing.T) {
	if testing.Short() {
		t.Skip("n = 8 takes 37 pipelines; go test without -short runs it")
	}
	code, out, errs := mcBeam(t, "check", "changroberts", "--n", "8", "--ids", "8,7,6,5,4,3,2,1", "--safety", "--json", "--shards", "4")
	if code != exitPass {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	var got checkJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != "pass" || got.States != 50152 || got.Transitions != 213101 || got.Terminal != 1 || got.Depth != 36 {
		t.Errorf("got %s, %d states, %d transitions, %d terminal, depth %d; want pass, 50152, 213101, 1, 36 (mc check)",
			got.Verdict, got.States, got.Transitions, got.Terminal, got.Depth)
	}
}

// TestCheckTextIsMcChecks: the text names the ids and the properties as
// mc check --safety does (it gave ids=[4 3 2 1], the columns verdict,
// kind, name, and "not-checked" for each liveness property).
func TestCheckTextIsMcChecks(t *testing.T) {
	code, out, errs := mcBeam(t, "check", "changroberts", "--n", "4", "--safety", "--shards", "2")
	if code != exitPass {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	for _, want := range []string{"changroberts canonical n=4 ids=4,3,2,1: pass\n",
		"\n  --safety: liveness not checked (eventually-leader, election-terminates)\n",
		"\n  pass       at-most-one-leader       invariant\n", "\n  pass       deadlock                 end\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not-checked") || strings.Contains(out, "[") {
		t.Errorf("output has Go's syntax or a liveness row:\n%s", out)
	}
}

// TestFailingCheckTraceReplays: the README's failing check (Raynal's
// literal Chang–Roberts with one initiator deadlocks) fails as in mc
// check, and its trace replays (mc trace --replay).
func TestFailingCheckTraceReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	code, out, errs := mcBeam(t, "check", "changroberts", "--variant", "raynal-literal", "--ids", "3,1,4,2", "--initiators", "0",
		"--safety", "--json", "--shards", "3", "--trace-out", path)
	if code != exitFail {
		t.Fatalf("exit %d, want 1: %s%s", code, out, errs)
	}
	var got checkJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.States != 4 || got.Depth != 3 || got.Properties["election-complete"] != "fail" || got.Properties["at-most-one-leader"] != "pass" {
		t.Errorf("got %d states, depth %d, %v; want mc check's 4 states, depth 3, election-complete failing", got.States, got.Depth, got.Properties)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := tracefile.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Deadlock || tr.Property.Name != "election-complete" || !tr.Run.Safety {
		t.Errorf("trace of %s (deadlock %v, safety %v), want election-complete's deadlock under --safety", tr.Property.Name, tr.Deadlock, tr.Run.Safety)
	}
	sys, err := tracefile.Target(tr)
	if err != nil {
		t.Fatal(err)
	}
	if o := tracefile.Replay(tr, sys); !o.Reached {
		t.Errorf("the trace does not replay: step %d: %s", o.Step, o.Why)
	}
}

// TestRefusals: bad input is one line and exit 2, before any pipeline.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "changroberts", "--n", "4"}, "liveness"},
		{[]string{"check", "changroberts", "--safety", "--runner", "direct"}, "--runner"},
		{[]string{"check", "changroberts", "--safety", "--shards", "0"}, "--shards"},
		{[]string{"check", "changroberts", "--safety", "--shards", "100000"}, "--shards must be at most 4096"},
		{[]string{"check", "changroberts", "--safety", "--variant", "all"}, `no variant "all"`},
		{[]string{"sweep", "changroberts", "--n", "3", "--variant", "all"}, `no variant "all"`},
		{[]string{"sweep", "changroberts", "--n", "3", "--variant", "canonical,nope"}, `no variant "canonical,nope"`},
		{[]string{"check", "nosuchspec", "--safety"}, "nosuchspec"},
		{[]string{"check", "changroberts", "--safety", "--param", "k=3"}, `--param: spec changroberts has no parameter "k"`},
		{[]string{"check", "changroberts", "--safety", "--param", "k"}, "--param: \"k\": want NAME=VALUE"},
		{[]string{"check", "changroberts", "--safety", "--", "--no_such_beam_option"}, "Beam option"},
		{[]string{"sweep", "changroberts", "--n", "3..12"}, "--n"},
		{[]string{"sweep", "misra", "--n", "3"}, "no ids"},
		{[]string{"sweep", "changroberts", "--n", "3", "--param", "k=1"}, `--param: spec changroberts has no parameter "k"`},
		{[]string{"sweep", "changroberts", "--n", "3", "--db", "x", "--no-db"}, "--no-db"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"check", "changroberts", "--safety", "--timeout", "0s"}, "--timeout must be positive, got 0s"},
		{[]string{"check", "changroberts", "--safety", "--max-memory", "lots"}, `--max-memory: want a positive size such as 512MiB or 1.5GiB, got "lots"`},
		{[]string{"check", "changroberts", "--safety", "--max-memory", "1KiB"}, "--max-memory 1KiB is less than the memory this program needs to start; the smallest usable limit is "},
	} {
		code, out, errs := mcBeam(t, c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("mc-beam %s: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %s",
				strings.Join(c.args, " "), code, out, errs, c.want)
		}
	}
}

// TestCheckTimeoutIsIncomplete: --timeout stops mc-beam check as it stops
// mc check: incomplete, exit 3, in one line saying why and where (check
// had no limit, issue #36 item 12). n = 8 takes 37 pipelines, far more
// than the limit.
func TestCheckTimeoutIsIncomplete(t *testing.T) {
	code, out, errs := mcBeam(t, "check", "changroberts", "--n", "8", "--safety", "--shards", "2", "--timeout", "300ms")
	if code != exitIncomplete || out != "" || strings.Count(errs, "\n") != 1 ||
		!strings.HasPrefix(errs, "mc-beam check: incomplete: timeout after 300ms, expanding level ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestSweepStateLimitIsIncomplete: a class that passes --max-states stops
// mc-beam sweep as it stops mc sweep, exit 3 with mc sweep's line (it was
// a failed pipeline: Beam's stack trace, and exit 4).
func TestSweepStateLimitIsIncomplete(t *testing.T) {
	code, out, errs := mcBeam(t, "sweep", "changroberts", "--n", "5", "--max-states", "100", "--no-db")
	if code != exitIncomplete || out != "" || errs != "mc-beam sweep: incomplete: n=5 ids=1,2,3,4,5: graph incomplete: state limit 100 reached\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestRecordRoundTrip: a record reads back as written.
func TestRecordRoundTrip(t *testing.T) {
	r := record{FP: 1<<63 + 5, Parent: 42, Enc: []byte("state")}
	r.Action.Rule, r.Action.Proc, r.Action.Choice = -1, 0, 7
	got, err := decodeRecord(appendRecord(nil, r))
	if err != nil || got.FP != r.FP || got.Parent != r.Parent || got.Action != r.Action || string(got.Enc) != "state" {
		t.Errorf("got %+v, %v; want %+v", got, err, r)
	}
	if _, err := decodeRecord(appendRecord(nil, r)[:20]); err == nil {
		t.Error("a truncated record decodes")
	}
}

// TestMerge: the visited fingerprints and a level's new ones merge into
// one sorted list.
func TestMerge(t *testing.T) {
	got := merge([]uint64{1, 4, 9}, []uint64{0, 2, 3, 10, 11})
	if want := []uint64{0, 1, 2, 3, 4, 9, 10, 11}; !slices.Equal(got, want) {
		t.Errorf("merge: %v, want %v", got, want)
	}
}
