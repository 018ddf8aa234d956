package cli

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/specs"
)

// interrupted runs mc check with args and a checkpoint at every level,
// stopped as Ctrl-C stops it, after level 0's checkpoint; it returns the
// checkpoint directory.
func interrupted(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code, out, errs := mc(t, ctx, append(append([]string{"check"}, args...), "--checkpoint", dir, "--checkpoint-every", "0")...); code != exitIncomplete {
		t.Fatalf("interrupted run: exit %d\n%s%s", code, out, errs)
	}
	return dir
}

// Issue 17: a resumed run turned a failure into a pass, since checkpoints
// did not record --fair. misra at n = 4 under no fairness fails four
// leads-to properties; interrupted and resumed with --resume alone, it
// still does, and exits 1. (-short: n = 3, which fails the same way.)
func TestResumeKeepsTheFairness(t *testing.T) {
	n := "4"
	if testing.Short() {
		n = "3"
	}
	args := []string{"misra", "--n", n, "--fair", "none"}
	code, want, _ := mc(t, context.Background(), append([]string{"check"}, args...)...)
	if code != exitFail || !strings.Contains(want, "liveness under fairness none") {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, want)
	}
	dir := interrupted(t, args...)
	code, got, errs := mc(t, context.Background(), "check", "--resume", dir)
	if code != exitFail || !strings.Contains(got, "liveness under fairness none") || properties(got) != properties(want) {
		t.Fatalf("resumed run: exit %d, want 1 and\n%s\ngot\n%s%s", code, properties(want), got, errs)
	}
}

// properties is the property lines of mc check's summary.
func properties(out string) string {
	start := strings.Index(out, "properties:")
	end := strings.Index(out, "\nverdict") // the verdict line ends the table, or the trace follows
	if i := strings.Index(out, "\n\n"); i > start && i < end {
		end = i
	}
	if start < 0 || end < start {
		return ""
	}
	return out[start:end]
}

// Issue 17: the resume of a --safety run was refused ("property count
// differs"). It resumes, checks safety only, and ends with the
// uninterrupted run's counts.
func TestSafetyRunResumes(t *testing.T) {
	args := []string{"misra", "--n", "3", "--safety"}
	_, want, _ := mc(t, context.Background(), append([]string{"check"}, args...)...)
	dir := interrupted(t, args...)
	code, got, errs := mc(t, context.Background(), "check", "--resume", dir)
	if code != exitPass || summaryCounts(got) != summaryCounts(want) || summaryCounts(want) == "" || !strings.Contains(got, "--safety: liveness not checked") {
		t.Fatalf("resumed --safety run: exit %d\n%s%s\nwant the counts of\n%s", code, got, errs, want)
	}
}

// summaryCounts is the line of mc check's summary with the counts.
func summaryCounts(out string) string {
	i := strings.Index(out, "distinct states")
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(out[:i], "\n") + 1
	return out[start : i+strings.Index(out[i:], "\n")]
}

// A resume restores the run; each flag given that contradicts the
// checkpoint is refused on a line of its own, naming the flag and both
// values, with exit 2 and before anything runs. Flags that agree with it
// are accepted.
func TestResumeRefusesContradictingFlagsOneLineEach(t *testing.T) {
	dir := interrupted(t, "misra", "--n", "4", "--fair", "none")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--fair", "action"}, []string{"--fair: the checkpoint has none, the command line has action"}},
		{[]string{"--continue"}, []string{"--continue: the checkpoint has off, the command line has on"}},
		{[]string{"--n", "5", "--safety", "--bound", "2"}, []string{
			"--n: the checkpoint has 4, the command line has 5",
			"--bound: the checkpoint has 1, the command line has 2",
			"--safety: the checkpoint has off, the command line has on"}},
		{[]string{"changroberts", "--chan", "bag"}, []string{
			"SPEC: the checkpoint has misra, the command line has changroberts",
			"--chan: the checkpoint has fifo, the command line has bag"}},
		{[]string{"--store", "disk", "--dir", t.TempDir()}, []string{"--store: the checkpoint has memory, the command line has disk"}},
		{[]string{"--variant", "mod-n"}, []string{"--variant: the checkpoint has signed, the command line has mod-n"}},
	} {
		code, out, errs := mc(t, context.Background(), append([]string{"check", "--resume", dir}, c.args...)...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != exitUsage || out != "" || len(lines) != len(c.want) {
			t.Errorf("%v: exit %d, want 2 and %d lines:\n%s%s", c.args, code, len(c.want), out, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, "mc check: "+w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, errs)
			}
		}
	}
	code, out, errs := mc(t, context.Background(), "check", "misra", "--resume", dir, "--n", "4", "--fair", "none", "--bound", "1", "--variant", "signed", "--store", "memory")
	if code != exitFail || !strings.Contains(out, "liveness under fairness none") {
		t.Fatalf("resume with agreeing flags: exit %d\n%s%s", code, out, errs)
	}
}

// Issue 24: a checkpoint written by another build resumed silently. The
// checkpoint records the build and a hash of the spec's sources; a resume
// by another build of mc, or of a spec whose code changed, is refused with
// exit 2, naming what changed.
func TestResumeRefusesAnotherBuildOrSpec(t *testing.T) {
	dir := interrupted(t, "changroberts", "--n", "4", "--safety")
	h, err := checker.ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := specs.Lookup("changroberts")
	if hash, _ := e.Hash(); h.SpecHash != hash || !h.Build.Same(h.Build) || h.Run.Spec != "changroberts" || !h.Run.Safety {
		t.Fatalf("the checkpoint records %+v; the spec's hash is %s", h, hash)
	}
	for _, c := range []struct {
		field, value, want string
	}{
		{"spec_hash", "0123456789abcdef", "mc check: spec changroberts changed since the checkpoint"},
		{"version", "0.0.1+0123456789ab", "mc check: the checkpoint was written by mc 0.0.1+0123456789ab, this is mc "},
	} {
		copied := filepath.Join(t.TempDir(), "ckpt")
		copyDir(t, dir, copied)
		editHeader(t, copied, func(h map[string]any) {
			if c.field == "version" {
				h["build"].(map[string]any)["version"] = c.value
				h["build"].(map[string]any)["revision"] = strings.Repeat("0123456789ab", 3)
				h["build"].(map[string]any)["modified"] = false
				return
			}
			h[c.field] = c.value
		})
		code, out, errs := mc(t, context.Background(), "check", "--resume", copied)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, c.want) {
			t.Errorf("%s changed: exit %d\n%s%s", c.field, code, out, errs)
		}
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(from, "checkpoint"))
	if err == nil {
		err = os.WriteFile(filepath.Join(to, "checkpoint"), data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// editHeader edits the JSON header of the checkpoint in dir and seals it
// with a valid checksum again, as another mc would have written it.
func editHeader(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "checkpoint")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	magic := "mc checkpoint " + checker.CheckpointFormat + "\n"
	rest := data[len(magic) : len(data)-8]
	n, k := binary.Uvarint(rest)
	var hdr map[string]any
	if err := json.Unmarshal(rest[k:k+int(n)], &hdr); err != nil {
		t.Fatal(err)
	}
	edit(hdr)
	raw, _ := json.Marshal(hdr)
	body := binary.AppendUvarint([]byte(magic), uint64(len(raw)))
	body = append(append(body, raw...), rest[k+int(n):]...)
	if err := os.WriteFile(path, binary.LittleEndian.AppendUint64(body, xxhash.Sum64(body)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The resume command a run stopped by a limit prints leaves that limit
// out: repeated, --max-states stopped the resumed run at the same place
// (and --max-memory, and --timeout soon after). Each printed command
// finishes the run with the uninterrupted counts.
func TestResumeCommandLeavesOutTheLimitThatStoppedTheRun(t *testing.T) {
	ctx := context.Background()
	_, want, _ := mc(t, ctx, "check", "changroberts", "--n", "6")
	want = want[strings.Index(want, "distinct states"):]
	want = want[:strings.Index(want, "\n")]
	for _, limit := range [][]string{{"--max-states", "300"}, {"--timeout", "1ns"}, {"--max-memory", "1KiB"}} {
		ckpt := filepath.Join(t.TempDir(), "ckpt")
		code, out, errs := mc(t, ctx, "check", "changroberts", "--n", "6", "--checkpoint", ckpt, "--checkpoint-every", "0", limit[0], limit[1])
		m := resumeLine.FindStringSubmatch(out)
		note := fmt.Sprintf("(without %s %s, the limit that stopped this run;", limit[0], limit[1])
		if code != exitIncomplete || m == nil || strings.Contains(m[1], limit[0]) || !strings.Contains(out, note) {
			t.Fatalf("%s: exit %d\n%s%s", limit[0], code, out, errs)
		}
		code, out, errs = mc(t, ctx, strings.Fields(m[1])...)
		if code != exitPass || !strings.Contains(out, want) {
			t.Fatalf("%s: %s: exit %d, want %q\n%s%s", limit[0], m[1], code, want, out, errs)
		}
	}
}
