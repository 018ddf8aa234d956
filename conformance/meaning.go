package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/cli"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// mc's exit codes (README.md).
const (
	exitPass       = 0
	exitFail       = 1
	exitUsage      = 2
	exitIncomplete = 3
)

// option is one option that changes what a run means (runinfo.Meaning), as
// the command line gives it, and whether spec e takes it.
type option struct {
	name      string
	args      func(e specs.Entry, n int) []string
	appliesTo func(e specs.Entry) bool
}

func always(specs.Entry) bool { return true }

// takes applies an option to the specs that take its knob.
func takes(k specdef.Knob) func(specs.Entry) bool {
	return func(e specs.Entry) bool { return e.Takes.Has(k) }
}

func fixed(args ...string) func(specs.Entry, int) []string {
	return func(specs.Entry, int) []string { return args }
}

// options are every option that changes the states explored or the
// verdicts. --store is not part of the meaning, but a checkpoint is bound
// to its store, so it is here too.
var options = []option{
	{"defaults", fixed(), always},
	{"fair-none", fixed("--fair", "none"), always},
	{"fair-process", fixed("--fair", "process"), always},
	{"fair-action", fixed("--fair", "action"), always},
	{"safety", fixed("--safety"), always},
	{"continue", fixed("--continue"), always},
	{"no-deadlock", fixed("--no-deadlock"), always},
	{"por", fixed("--safety", "--por"), always},
	{"por-liveness", fixed("--por"), always}, // refused for specs without a termination measure
	{"claims", fixed("--claims"), takes(specdef.Claims)},
	{"chan-bag", fixed("--chan", "bag"), takes(specdef.Chan)},
	{"chan-fifo", fixed("--chan", "fifo"), takes(specdef.Chan)},
	{"cap", fixed("--cap", "1"), takes(specdef.Cap)},
	{"ids", func(e specs.Entry, n int) []string {
		ids := slices.Clone(e.IDs(n))
		slices.Reverse(ids)
		return []string{"--ids", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ids)), ","), "[]")}
	}, takes(specdef.IDs)},
	{"initiators", fixed("--initiators", "0"), takes(specdef.Initiators)},
	{"links-full", fixed("--links", "full"), takes(specdef.Links)},
	{"links-half", fixed("--links", "half"), takes(specdef.Links)},
	{"orientation", func(_ specs.Entry, n int) []string { return []string{"--orientation", strings.Repeat("01", n)[:n]} },
		takes(specdef.Orientation)},
	{"drift", fixed("--drift", "1"), takes(specdef.Drift)},
	{"bound", fixed("--bound", "2"), takes(specdef.Bound)},
	{"store-disk", fixed(), always}, // the store's directory is the test's
	{"variant", nil, func(e specs.Entry) bool { return len(e.Variants) > 1 }},
	{"param", nil, func(e specs.Entry) bool { return len(e.Params) > 0 }},
}

// cases lists o's runs of e at n: one, or for "variant" one per variant
// other than the default, for "param" one per parameter of the spec's own
// whose range has a value besides its default (specdef.Param).
func (o option) cases(e specs.Entry, n int) map[string][]string {
	switch o.name {
	case "variant":
	case "param":
		return paramCases(e)
	default:
		return map[string][]string{o.name: o.args(e, n)}
	}
	out := map[string][]string{}
	for _, v := range e.Variants[1:] {
		out["variant-"+v.Name] = []string{"--variant", v.Name}
		if e.Takes.Has(specdef.Drift) { // a clock-based spec's scaled variant reads its clock ratio off --drift
			out["variant-"+v.Name] = append(out["variant-"+v.Name], "--drift", "1")
		}
	}
	return out
}

// paramCases are e's runs with each of its own parameters set to a value
// other than its default: its least, or its greatest when that is the
// default.
func paramCases(e specs.Entry) map[string][]string {
	out := map[string][]string{}
	for _, d := range e.Params {
		v := d.Min
		if v == d.Default {
			v = d.Max
		}
		if v != d.Default {
			out["param-"+d.Name] = []string{"--param", fmt.Sprintf("%s=%d", d.Name, v)}
		}
	}
	return out
}

// Meaning checks, with every option of the meaning that e takes, that a
// run checkpointed and interrupted (as Ctrl-C does, at its first level;
// and half-way by a state limit), then resumed with --resume alone, ends as
// the uninterrupted run did: the same exit code, counts, verdicts, traces
// and measures; and that the trace file the run writes replays. A run the
// spec refuses (exit 2), or one larger than opt's state bound, is skipped.
// It returns the options that were exercised, by name.
func Meaning(t *testing.T, e specs.Entry, opt Options) (exercised []string) {
	register(t, e)
	n := opt.ringSize(e)
	for _, o := range options {
		if !o.appliesTo(e) {
			continue
		}
		for name, extra := range o.cases(e, n) {
			t.Run(name, func(t *testing.T) {
				args := append([]string{"check", e.Name, "--n", strconv.Itoa(n), "--workers", "1", "--no-db"}, extra...)
				if o.name == "store-disk" {
					args = append(args, "--store", "disk", "--dir", filepath.Join(t.TempDir(), "store"))
				}
				if checkResumes(t, args, opt.maxStates()) {
					exercised = append(exercised, o.name)
				}
			})
		}
	}
	return exercised
}

// register makes e one of the specs mc's command line checks, unless a
// spec of its name already is (mc's own).
func register(t *testing.T, e specs.Entry) {
	t.Helper()
	if _, err := specs.Lookup(e.Name); err == nil {
		return
	}
	if err := specs.Add(e); err != nil {
		t.Fatal(err)
	}
}

// mc runs mc's command line in-process.
func mc(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = cli.Run(ctx, args, &out, &errs)
	return code, out.String(), errs.String()
}

// runFigures is everything a run reports that must not depend on whether
// it was interrupted: every count, verdict, trace and measure, without
// times, memory, workers, the checkpoint and working directory it used,
// and where its liveness graph came from.
func runFigures(t *testing.T, out string) string {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v):\n%s", err, out)
	}
	for _, k := range []string{"elapsed_ms", "states_per_sec", "memory_bytes", "peak_rss_bytes", "disk_bytes", "workers", "collision_probability", "checkpoint", "work_dir", "work_dir_kept", "phase_elapsed_ms", "memory_limit_bytes"} {
		delete(r, k)
	}
	if l, ok := r["liveness"].(map[string]any); ok {
		delete(l, "elapsed_ms")
		delete(l, "memory_bytes")
		delete(l, "rebuilt") // a resumed run builds the graph the uninterrupted one recorded
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// checkResumes runs args uninterrupted, interrupted and resumed, and with
// --trace-out, and compares; false when the run was skipped (refused, or
// larger than maxStates).
func checkResumes(t *testing.T, args []string, maxStates int) bool {
	code, out, errs := mc(context.Background(), append(args, "--json", "--max-states", strconv.Itoa(maxStates))...)
	if code == exitUsage {
		t.Logf("refused: %s", strings.TrimSpace(errs))
		return false
	}
	var r struct {
		States int
		Reason string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || (code != exitPass && code != exitFail) {
		if r.Reason != "" {
			t.Logf("larger than %d states", maxStates)
			return false
		}
		t.Fatalf("%v: exit %d (%v)\n%s", args, code, err, errs)
	}
	checkInterrupted(t, args, code, runFigures(t, out), r.States)
	checkTraceReplays(t, args, code)
	return true
}

// checkInterrupted runs args with a checkpoint at every level, interrupts
// it (as Ctrl-C does, at its first level; and with a state limit, half-way)
// and resumes it with --resume alone: the resumed run must end as the
// uninterrupted one did, with exit code and figures want.
func checkInterrupted(t *testing.T, args []string, code int, want string, states int) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel() // the run saves level 0's checkpoint, then stops
	for _, stop := range []struct {
		name string
		ctx  context.Context
		args []string
	}{
		{"Ctrl-C", cancelled, nil},
		{"state limit", ctx, []string{"--max-states", strconv.Itoa(max(states/2, 1))}},
	} {
		dir := filepath.Join(t.TempDir(), "ckpt")
		first := append(append(slices.Clone(args), "--checkpoint", dir, "--checkpoint-every", "0"), stop.args...)
		if c, o, e := mc(stop.ctx, first...); c != exitIncomplete && c != code {
			t.Fatalf("%s: interrupted run exit %d\n%s%s", stop.name, c, o, e)
		}
		if _, err := os.Stat(filepath.Join(dir, "checkpoint")); err != nil {
			// A state limit below the initial states stops the run in level 0;
			// LevelZero checks what it says then.
			continue
		}
		c, o, e := mc(ctx, "check", "--resume", dir, "--json", "--workers", "1", "--no-db")
		if c != code || runFigures(t, o) != want {
			t.Fatalf("%s: resumed run exit %d, want %d\n got %s\nwant %s\n%s", stop.name, c, code, runFigures(t, o), want, e)
		}
	}
}

// checkTraceReplays writes the trace of a run of args, which exits code,
// and replays it: a failing run must write its counterexample.
func checkTraceReplays(t *testing.T, args []string, code int) {
	ctx := context.Background()
	trace := filepath.Join(t.TempDir(), "t.json")
	if c, _, e := mc(ctx, append(slices.Clone(args), "--trace-out", trace)...); c != code {
		t.Fatalf("--trace-out: exit %d, want %d\n%s", c, code, e)
	}
	if _, err := os.Stat(trace); err != nil {
		if code == exitFail {
			t.Fatalf("a failing run wrote no trace: %v", err)
		}
		return
	}
	if c, o, e := mc(ctx, "trace", trace, "--replay"); c != exitPass {
		t.Fatalf("the trace does not replay: exit %d\n%s%s", c, o, e)
	}
}

// LevelZero checks a run stopped while storing its initial states (a state
// limit of 1, with a checkpoint at every level): it either saved a
// checkpoint, and resuming it ends as the uninterrupted run does, or it
// says in one line of its output why it saved none, and resuming its
// directory is refused in one line (exit 2).
func LevelZero(t *testing.T, e specs.Entry, opt Options) {
	register(t, e)
	ctx := context.Background()
	args := []string{"check", e.Name, "--n", strconv.Itoa(opt.ringSize(e)), "--workers", "1", "--no-db"}
	code, out, errs := mc(ctx, append(slices.Clone(args), "--json", "--max-states", strconv.Itoa(opt.maxStates()))...)
	if code != exitPass && code != exitFail {
		t.Skipf("the uninterrupted run: exit %d\n%s", code, errs)
	}
	want := runFigures(t, out)
	dir := filepath.Join(t.TempDir(), "ckpt")
	c, o, e2 := mc(ctx, append(slices.Clone(args), "--checkpoint", dir, "--checkpoint-every", "0", "--max-states", "1")...)
	if c != exitIncomplete && c != code {
		t.Fatalf("stopped at 1 state: exit %d\n%s%s", c, o, e2)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoint")); err == nil {
		c, o, e2 := mc(ctx, "check", "--resume", dir, "--json", "--workers", "1", "--no-db")
		if c != code || runFigures(t, o) != want {
			t.Fatalf("resumed from level 0: exit %d, want %d\n got %s\nwant %s\n%s", c, code, runFigures(t, o), want, e2)
		}
		return
	}
	if c == exitIncomplete && !strings.Contains(o, "checkpoint: this run saved none") {
		t.Fatalf("a run stopped in level 0 saved no checkpoint and does not say why:\n%s", o)
	}
	c, o, e2 = mc(ctx, "check", "--resume", dir, "--no-db")
	if c != exitUsage || strings.Count(e2, "\n") != 1 {
		t.Fatalf("resuming a directory without a checkpoint: exit %d, want %d and one line\n%s%s", c, exitUsage, o, e2)
	}
}
