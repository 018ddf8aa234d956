package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// meaningOption is one option that changes what a run means, as the
// command line gives it, and the specs it applies to.
type meaningOption struct {
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

// meaningOptions are every option that changes the states explored or the
// verdicts (runinfo.Meaning), each with the specs that take it. --store is
// not part of the meaning, but a checkpoint is bound to its store, so it
// is here too.
var meaningOptions = []meaningOption{
	{"defaults", fixed(), always},
	{"fair-none", fixed("--fair", "none"), always},
	{"fair-process", fixed("--fair", "process"), always},
	{"fair-action", fixed("--fair", "action"), always},
	{"safety", fixed("--safety"), always},
	{"continue", fixed("--continue"), always},
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
	{"store-disk", func(specs.Entry, int) []string { return nil }, always},
	{"variant", nil, func(e specs.Entry) bool { return len(e.Variants) > 1 }},
}

// cases lists o's runs of e at n: one, or for "variant" one per variant
// other than the default.
func (o meaningOption) cases(e specs.Entry, n int) map[string][]string {
	if o.name != "variant" {
		return map[string][]string{o.name: o.args(e, n)}
	}
	out := map[string][]string{}
	for _, v := range e.Variants[1:] {
		out["variant-"+v.Name] = []string{"--variant", v.Name}
		if e.Takes.Has(specdef.Drift) { // vitanyi's scaled variant reads its clock ratio off --drift
			out["variant-"+v.Name] = append(out["variant-"+v.Name], "--drift", "1")
		}
	}
	return out
}

// meaningN is the ring each spec is checked at: its smallest, or the
// smallest it takes.
func meaningN(e specs.Entry) int {
	if e.Takes.Has(specdef.Links) {
		return 3
	}
	return 2
}

// maxMeaningStates leaves out a run too large for a quick test (the misra
// mutants at n = 2): its own package's tests check it.
const maxMeaningStates = 50_000

// runFigures is everything a run reports that must not depend on whether
// it was interrupted: every count, verdict, trace and measure, without
// times, memory, workers, and the checkpoint and working directory it used.
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
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// Every registered spec, with every option that changes the meaning of a
// run: a run checkpointed and interrupted (by Ctrl-C at its first level,
// and by a state limit half-way), then resumed with --resume alone, gives
// the uninterrupted run's counts, verdicts, traces and exit code; and the
// trace it writes replays.
func TestEveryMeaningSurvivesResumeAndReplay(t *testing.T) {
	accepted := map[string]int{}
	for _, e := range specs.All() {
		n := meaningN(e)
		for _, o := range meaningOptions {
			if !o.appliesTo(e) {
				continue
			}
			for name, extra := range o.cases(e, n) {
				t.Run(e.Name+"/"+name, func(t *testing.T) {
					args := append([]string{"check", e.Name, "--n", strconv.Itoa(n), "--workers", "1"}, extra...)
					if o.name == "store-disk" {
						args = append(args, "--store", "disk", "--dir", filepath.Join(t.TempDir(), "store"))
					}
					checkResumes(t, args)
					accepted[o.name]++
				})
			}
		}
	}
	for _, o := range meaningOptions {
		if accepted[o.name] == 0 {
			t.Errorf("option %s: no spec was checked with it (every run was refused or too large)", o.name)
		}
	}
}

// checkResumes runs args uninterrupted, interrupted and resumed, and with
// --trace-out, and compares. A run the spec refuses (dkr takes no bag
// channels, say) or one too large for a quick test is skipped.
func checkResumes(t *testing.T, args []string) {
	ctx := context.Background()
	code, out, errs := mc(t, ctx, append(args, "--json", "--max-states", strconv.Itoa(maxMeaningStates))...)
	if code == exitUsage {
		t.Skipf("refused: %s", strings.TrimSpace(errs))
	}
	var r struct {
		States int
		Reason string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || (code != exitPass && code != exitFail) {
		t.Fatalf("%v: exit %d (%v)\n%s", args, code, err, errs)
	}
	if r.Reason != "" {
		t.Skipf("larger than %d states", maxMeaningStates)
	}
	checkInterrupted(t, args, code, runFigures(t, out), r.States)
	checkTraceReplays(t, args, code)
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
		if c, o, e := mc(t, stop.ctx, first...); c != exitIncomplete && c != code {
			t.Fatalf("%s: interrupted run exit %d\n%s%s", stop.name, c, o, e)
		}
		c, o, e := mc(t, ctx, "check", "--resume", dir, "--json", "--workers", "1")
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
	if c, _, e := mc(t, ctx, append(slices.Clone(args), "--trace-out", trace)...); c != code {
		t.Fatalf("--trace-out: exit %d, want %d\n%s", c, code, e)
	}
	if _, err := os.Stat(trace); err != nil {
		if code == exitFail {
			t.Fatalf("a failing run wrote no trace: %v", err)
		}
		return
	}
	if c, o, e := mc(t, ctx, "trace", trace, "--replay"); c != exitPass {
		t.Fatalf("the trace does not replay: exit %d\n%s%s", c, o, e)
	}
}
