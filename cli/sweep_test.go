package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestSweepUsageErrors(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"sweep"},
		{"sweep", "nosuchspec", "--n", "3"},
		{"sweep", "changroberts", "--n", "7..3"},
		{"sweep", "changroberts", "--n", "x"},
		{"sweep", "changroberts", "--ids", "3,x"},
		{"sweep", "changroberts", "--n", "4", "--ids", "3,1,2"},
		{"sweep", "tokenring", "--n", "3"},
		{"sweep", "all", "--n", "3"},
		{"sweep", "all", "--por"},
		{"sweep", "changroberts", "--n", "3", "--workers", "0"},
		{"sweep", "changroberts", "--n", "16", "--sample", "3", "--por"},
		{"sweep", "vlt", "--n", "3", "--por", "--no-db"},
	} {
		code, _, errs := mc(t, ctx, args...)
		if code != exitUsage || strings.Count(strings.TrimSpace(errs), "\n") != 0 || errs == "" {
			t.Errorf("mc %v: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
	}
}

func TestSweepJSONAndOut(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := mc(t, context.Background(), "sweep", "changroberts", "--variant", "all-initiate", "--n", "3..4", "--json", "--out", dir)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON object per n, got %q", out)
	}
	var row struct {
		N, Arrangements, States int
		Worst                   int      `json:"worst_messages"`
		Best                    int      `json:"best_messages"`
		Mean                    float64  `json:"mean_messages"`
		Bound                   *float64 `json:"bound"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &row); err != nil {
		t.Fatal(err)
	}
	if row.N != 4 || row.Arrangements != 24 || row.Worst != 10 || row.Best != 7 || row.Bound == nil || *row.Bound != 10 || row.States == 0 {
		t.Errorf("n=4 row = %+v", row)
	}
	for _, f := range []string{"changroberts-all-initiate.json", "changroberts-all-initiate.md", "changroberts-all-initiate.svg", "traces/changroberts-all-initiate-n4-worst.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if code, out, _ := mc(t, context.Background(), "trace", filepath.Join(dir, "traces/changroberts-all-initiate-n4-worst.json"), "--replay"); code != exitPass {
		t.Errorf("the worst witness does not replay: exit %d, %s", code, out)
	}
}

// A sweep under --por says so in its header, its rows and its classes,
// and its store key differs from the unreduced sweep's: the second sweep
// reuses nothing of the first.
func TestSweepPorIsPartOfTheMeaning(t *testing.T) {
	ctx := context.Background()
	db := t.TempDir()
	code, out, errs := mc(t, ctx, "sweep", "franklin", "--n", "3", "--db", db, "--por", "--workers", "2")
	if code != exitPass || !strings.Contains(out, "reduced graphs (--por)") || !strings.Contains(out, "most stages: not computed under --por") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = mc(t, ctx, "sweep", "franklin", "--n", "3", "--db", db, "--json")
	if code != exitPass || strings.Contains(out, `"reduced"`) || !strings.Contains(errs, "0 reused") {
		t.Fatalf("unreduced after reduced: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = mc(t, ctx, "sweep", "franklin", "--n", "3", "--db", db, "--json", "--por")
	var row struct {
		Reduced     bool   `json:"reduced"`
		NotComputed string `json:"not_computed"`
		PerClass    []struct {
			Reduced bool `json:"reduced"`
		} `json:"per_arrangement"`
	}
	if err := json.Unmarshal([]byte(out), &row); code != exitPass || err != nil || !row.Reduced || row.NotComputed == "" ||
		len(row.PerClass) == 0 || !row.PerClass[0].Reduced || strings.Contains(errs, " 0 reused") {
		t.Fatalf("reduced again: exit %d (%v), stdout %q, stderr %q", code, err, out, errs)
	}
}

// mc ci recomputes the quick subset of results/ and fails on drift: here
// against copies of results/, one with a figure changed in the JSON (the
// row drifts, and so do README.md, the table's Markdown and the plots,
// which render from it), one
// with a paragraph added to README.md by hand. Its --junit report has a
// case per row and file, failed where they drift.
func TestCIDetectsDrift(t *testing.T) {
	for _, c := range []struct {
		file, old, new, want string
		drifts               int
	}{
		{"changroberts.json", `"worst_messages": 6,`, `"worst_messages": 7,`, "DRIFT changroberts n=3", 5},
		{"README.md", "## Partial-order reduction", "A paragraph by hand.\n\n## Partial-order reduction", "DRIFT README.md", 1},
	} {
		if testing.Short() && c.file == "README.md" {
			continue // -short (CI's race run): one mc ci run is enough to race
		}
		dir := t.TempDir()
		copyResults(t, dir, c.file, c.old, c.new)
		report := filepath.Join(t.TempDir(), "report.xml")
		code, out, errs := mc(t, context.Background(), "ci", "--results", dir, "--junit", report)
		if code != exitFail || !strings.Contains(out, c.want) || strings.Count(out, "DRIFT") != c.drifts {
			t.Fatalf("mc ci with %s changed: exit %d, want %d drifts\n%s%s", c.file, code, c.drifts, out, errs)
		}
		// The JUnit report has a case per line mc ci prints, failed on
		// drift with that line in its message or text.
		r := readJUnit(t, report)
		lines := 0
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "DRIFT ") {
				lines++
			}
		}
		if len(r.Suites) != 1 || r.Tests != lines || r.Failures != c.drifts || r.Errors+r.Skipped != 0 {
			t.Fatalf("mc ci with %s changed: report %+v for\n%s", c.file, r.Counts, out)
		}
		for _, tc := range r.Suites[0].Cases {
			if f := tc.Failure; f != nil && !strings.Contains(f.Message+f.Text, "DRIFT "+tc.Name) {
				t.Errorf("mc ci with %s changed: failure %s says %q, %q", c.file, tc.Name, f.Message, f.Text)
			}
		}
	}
}

// mc ci compares every file of the tables it checks, byte for byte, where
// it can render it (the witness runs of the rows it recomputes, each
// table's Markdown), and that the others are there: a row edited in a
// table's Markdown, a witness run cut, garbled or deleted, a table's
// Markdown deleted, and a witness run no row has all passed, exit 0. Each
// is named, and only they are; the untouched copy passes. One run store
// serves every mc ci here, so that the classes are computed once.
func TestCIDetectsDamagedFiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	damages := []struct {
		file   string
		damage func(path string) error
		why    string
	}{
		{"changroberts.md", func(path string) error {
			return replaceIn(path, "| 4 | 24 (6) | 497 | 10 |", "| 4 | 24 (6) | 497 | 11 |")
		}, "is not what"},
		{"traces/changroberts-n3-worst.json", func(path string) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, data[:len(data)/2], 0o644)
		}, "is not what"},
		{"traces/dkr-n4-best.json", func(path string) error { return os.WriteFile(path, []byte("garbage\n"), 0o644) }, "is not what"},
		{"traces/lelann-n5-worst.json", os.Remove, "is missing"},
		{"traces/changroberts-n8-best.json", os.Remove, "is missing"},
		{"dkr.md", os.Remove, "is missing"},
		// The witness runs of rows mc ci does not recompute, which it
		// cannot render again: each must be its row's run.
		{"traces/changroberts-n7-worst.json", func(path string) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, data[:len(data)/2], 0o644)
		}, "cannot be read"},
		{"traces/lelann-n7-best.json", func(path string) error { return os.WriteFile(path, []byte("garbage\n"), 0o644) }, "cannot be read"},
		{"traces/changroberts-n8-worst.json", func(path string) error {
			return copyFile(filepath.Join(filepath.Dir(path), "changroberts-n7-best.json"), path)
		}, "is not its row's run: --n: the row's run has 8, the trace has 7"},
		{"traces/franklin-n6-worst.json", func(path string) error {
			editTrace(t, path, path, func(f map[string]any) { f["steps"], f["states"] = f["steps"].([]any)[:2], f["states"].([]any)[:3] })
			return nil
		}, "does not replay: the run replays, but its last state is no longer terminal"},
		{"traces/vitanyi-n4-worst.json", func(path string) error {
			if err := copyFile(filepath.Join(filepath.Dir(path), "vitanyi-n4-best.json"), path); err != nil {
				return err
			}
			editTrace(t, path, path, func(f map[string]any) {
				p := field(f, "property")
				p["name"], p["doc"] = "worst-messages", strings.Replace(p["doc"].(string), "best", "worst", 1)
			})
			return nil
		}, "replays to a run of cost 12, and the row's worst is 18"},
		{"traces/changroberts-n9-worst.json", func(path string) error {
			data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "changroberts-n8-worst.json"))
			if err != nil {
				return err
			}
			return os.WriteFile(path, data, 0o644)
		}, "is no witness run"},
	}
	if testing.Short() {
		damages = damages[1:2] // -short (CI's race run): one damage, one mc ci run
	} else {
		dir := t.TempDir()
		copyResults(t, dir, "", "", "")
		if code, out, errs := mc(t, context.Background(), "ci", "--results", dir, "--db", db); code != exitPass || strings.Contains(out, "DRIFT") {
			t.Fatalf("mc ci of an untouched copy: exit %d\n%s%s", code, out, errs)
		}
	}
	dir := t.TempDir()
	copyResults(t, dir, "", "", "")
	for _, d := range damages {
		if err := d.damage(filepath.Join(dir, filepath.FromSlash(d.file))); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := mc(t, context.Background(), "ci", "--results", dir, "--db", db)
	if code != exitFail || strings.Count(out, "DRIFT") != len(damages) {
		t.Fatalf("mc ci with %d files damaged: exit %d\n%s%s", len(damages), code, out, errs)
	}
	for _, d := range damages {
		if !strings.Contains(out, "DRIFT "+d.file+" "+d.why) {
			t.Errorf("mc ci does not say %s %s:\n%s", d.file, d.why, out)
		}
	}
}

// copyFile copies the file from to to.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// replaceIn replaces the first old in the file at path by new.
func replaceIn(path, old, new string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !strings.Contains(string(data), old) {
		return fmt.Errorf("%s has no %q", path, old)
	}
	return os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
}

// copyResults copies results/'s tables, README.md, plots and witness runs
// (traces/) to dir, with the first old in file (a path in results/, with
// slashes) replaced by new.
func copyResults(t *testing.T, dir, file, old, new string) {
	t.Helper()
	src := filepath.Join("..", "results")
	found := file == ""
	for _, sub := range []string{"", "traces"} {
		entries, err := os.ReadDir(filepath.Join(src, sub))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || e.Name() == "por.md" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(src, sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if path.Join(sub, e.Name()) == file {
				if !strings.Contains(string(data), old) {
					t.Fatalf("%s has no %q", file, old)
				}
				data, found = []byte(strings.Replace(string(data), old, new, 1)), true
			}
			if err := os.WriteFile(filepath.Join(dir, sub, e.Name()), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !found {
		t.Fatalf("results/ has no %s", file)
	}
}

// A sweep stopped by a limit or an interrupt is incomplete, exit 3 (it
// exited 2, the usage code), and it keeps to a memory limit as mc check
// does (it had none).
func TestStoppedSweepIsIncomplete(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		args []string
		why  string
	}{
		{context.Background(), []string{"--max-states", "100"}, "mc sweep: incomplete: n=6 ids=1,2,3,4,5,6: graph incomplete: state limit 100 reached"},
		{context.Background(), []string{"--max-memory", "1KiB"}, "graph incomplete: memory limit 1 KiB reached"},
		{stopped, nil, "graph incomplete: "},
	} {
		code, out, errs := mc(t, c.ctx, append([]string{"sweep", "changroberts", "--n", "6", "--no-db"}, c.args...)...)
		if code != exitIncomplete || out != "" || !strings.Contains(errs, c.why) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	if code, _, errs := mc(t, context.Background(), "sweep", "changroberts", "--n", "3", "--no-db", "--max-memory", "0"); code != exitUsage || strings.Count(errs, "\n") != 1 {
		t.Errorf("--max-memory 0: exit %d, stderr %q", code, errs)
	}
}

// An --out that cannot be written is refused before the sweep, in one
// line, exit 2: it was found after the table was printed, exit 4.
func TestSweepOutIsCheckedBeforeTheSweep(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"/proc/nope", file, filepath.Join(file, "sub")} {
		for _, extra := range [][]string{nil, {"--sample", "5"}} {
			args := append([]string{"sweep", "changroberts", "--n", "3", "--no-db", "--out", out}, extra...)
			code, stdout, errs := mc(t, context.Background(), args...)
			if code != exitUsage || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "mc sweep: --out "+out) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, errs)
			}
		}
	}
}
