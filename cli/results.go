package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ringcheck/mc/junit"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

// regenerate is the command results/README.md names at its top.
const regenerate = "go run ./cmd/mc sweep all --out results"

// profileConfig is the sweep results/ holds for s.
func profileConfig(s specs.Sweep, opt sweep.CostOptions) sweep.Config {
	return sweep.Config{Spec: s.Entry, Profile: s.Profile, Variant: s.Profile.Variant, Drift: s.Profile.Drift, Opt: opt}
}

// sweepAll regenerates dir: every profile's table, witnesses, README.md and
// the plot. It prints each table as text, or, asJSON, as mc sweep --json
// prints a spec's rows.
func sweepAll(ctx context.Context, dir string, opt sweep.CostOptions, workers int, c classes, asJSON bool, stdout, stderr io.Writer) int {
	var tables []*sweep.Table
	for _, s := range specs.Sweeps() {
		cfg := c.config(profileConfig(s, opt))
		cfg.Workers = workers
		t, code := sweepTable(ctx, s.Profile.Name, cfg, cfg.Profile.Ns, stderr)
		if t == nil {
			return code
		}
		var err error
		if asJSON {
			err = sweepout.WriteJSON(stdout, t)
		} else {
			sweep.WriteText(stdout, t)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
		if err := sweepout.WriteDir(dir, t, version()); err != nil {
			return outputFailed(stderr, "sweep", "--out", dir, err)
		}
		tables = append(tables, t)
	}
	if err := writeIndex(dir, tables); err != nil {
		return outputFailed(stderr, "sweep", "--out", dir, err)
	}
	return exitPass
}

// writeIndex writes dir/worst.svg and dir/README.md, rendered from the
// tables (index), as a table's files are written (sweepout.WriteFiles).
func writeIndex(dir string, tables []*sweep.Table) error {
	md, svg := index(tables)
	return sweepout.WriteFiles(dir, []sweepout.File{{Path: "worst.svg", Data: []byte(svg)}, {Path: "README.md", Data: []byte(md)}})
}

// index renders results/README.md and the plot worst.svg from the tables,
// in the order of specs.Sweeps.
func index(tables []*sweep.Table) (readme, svg string) {
	var plotted []*sweep.Table
	for _, t := range tables {
		if s, _ := specs.SweepOf(t.Name); s.Profile.Plotted {
			plotted = append(plotted, t)
		}
	}
	var md, plot strings.Builder
	sweep.WriteSVG(&plot, plotted)
	sweep.WriteReadme(&md, regenerate, tables, unswept())
	return md.String(), plot.String()
}

// unswept says, for every spec that no profile sweeps, why.
func unswept() []string {
	var out []string
	for _, e := range specs.All() {
		switch {
		case len(e.Sweeps) > 0:
		case e.Anonymous():
			out = append(out, fmt.Sprintf("- %s: a mutual-exclusion spec whose processes have no ids: there are no arrangements to sweep.", e.Name))
		default:
			out = append(out, fmt.Sprintf("- %s: no sweep profile yet (specdef.Info.Sweeps).", e.Name))
		}
	}
	return out
}

// runCI is mc ci: it recomputes the quick subset of results/ (each
// profile's CI sizes) and fails on any difference from the committed JSON.
// It reuses the classes the run store holds under an unchanged key; --fresh
// recomputes them all, as CI's own script does.
func runCI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ci", "[flags]", stdout)
	dir := fs.String("results", "results", "the directory holding the committed tables")
	var junitOut string
	addJUnitFlag(fs, &junitOut)
	var db dbFlags
	db.Add(fs)
	db.AddOff(fs)
	db.AddFresh(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "mc ci: takes no arguments (see mc ci --help)")
		return exitUsage
	}
	dbDir, err := db.Path(fs, defaultDB)
	if err == nil {
		err = checkJUnitOut(junitOut)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc ci: %v\n", err)
		return exitUsage
	}
	start := time.Now()
	suite := junit.NewSuite("mc ci "+*dir, start)
	code := withClasses(dbDir, "ci", db.Fresh, stderr, func(c classes) int {
		return ci(ctx, *dir, c, &suite, stdout, stderr)
	})
	// What stopped mc ci before any comparison (the run store, say) is
	// in error too: the report never passes a run that did not end.
	if code != exitPass && !slices.ContainsFunc(suite.Cases, func(c junit.Case) bool { return c.Failure != nil || c.Error != nil }) {
		suite.Add(junit.Case{Name: "ci", Classname: "mc ci", Error: &junit.Outcome{Message: fmt.Sprintf("mc ci stopped, exit %d: its standard error says why", code)}})
	}
	suite.Elapsed = time.Since(start)
	if err := writeJUnit(junitOut, "ci", []junit.Suite{suite}); err != nil {
		return outputFailed(stderr, "ci", "--junit", junitOut, err)
	}
	return code
}

// ci compares each profile's CI rows, computed or reused from c, and the
// files rendered from the tables, with those in dir; suite gets a case per
// row and file, failed on drift, and one in error for what stopped it.
func ci(ctx context.Context, dir string, c classes, suite *junit.Suite, stdout, stderr io.Writer) int {
	stopped := func(name, class, why string) {
		suite.Add(junit.Case{Name: name, Classname: class, Error: &junit.Outcome{Message: why}})
	}
	drift := 0
	var tables []*sweep.Table
	var tally classTally
	// files are what dir must hold for the tables checked: each with the
	// bytes it renders to, or, for the witness runs of the rows not
	// recomputed, which cannot be rendered without them, the check that
	// each is its row's run (sweepout.CheckTrace).
	var files []expectedFile
	traces := map[string]bool{}
	for _, s := range specs.Sweeps() {
		name := s.Profile.Name
		class := "mc ci " + name
		data, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			fmt.Fprintf(stderr, "mc ci: %v\n", err)
			stopped(name+".json", class, err.Error())
			return exitUsage
		}
		var want sweep.Table
		if err := json.Unmarshal(data, &want); err != nil {
			fmt.Fprintf(stderr, "mc ci: %s: %v\n", name, err)
			stopped(name+".json", class, err.Error())
			return exitUsage
		}
		tables = append(tables, &want)
		cfg := c.config(profileConfig(s, sweep.CostOptions{}))
		recomputed := want
		recomputed.Rows = nil
		for _, n := range cfg.Profile.CI {
			row := fmt.Sprintf("%s n=%d", name, n)
			got, err := sweep.Run(ctx, cfg, n)
			if err != nil {
				fmt.Fprintf(stderr, "mc ci: %s\n", classError(err))
				stopped(row, class, classError(err))
				return classExit(err, exitInternal)
			}
			tally.add(got)
			recomputed.Rows = append(recomputed.Rows, got)
			var old *sweep.Row
			for _, r := range want.Rows {
				if r.N == n {
					old = r
				}
			}
			a, _ := json.Marshal(got)
			var b []byte
			if old != nil {
				b, _ = json.Marshal(old)
			}
			if string(a) != string(b) {
				text := fmt.Sprintf("DRIFT %s n=%d: recomputed %s\n  results/%s.json has %s\n", name, n, a, name, b)
				fmt.Fprint(stdout, text)
				suite.Add(junit.Case{Name: row, Classname: class, Failure: &junit.Outcome{
					Message: fmt.Sprintf("%s: recomputed, it differs from results/%s.json", row, name), Type: "drift", Text: text}})
				drift++
				continue
			}
			fmt.Fprintf(stdout, "ok    %s n=%d: %s, %d states\n", name, n, got.Costs(), got.States)
			suite.Add(junit.Case{Name: row, Classname: class})
		}
		checked, err := tableFiles(cfg, &want, &recomputed)
		if err != nil {
			fmt.Fprintf(stderr, "mc ci: %s: %v\n", name, err)
			stopped(name, class, err.Error())
			return exitInternal
		}
		for _, f := range checked {
			files = append(files, f)
			if strings.HasPrefix(f.path, "traces/") {
				traces[f.path] = true
			}
		}
	}
	if c.store != nil {
		fmt.Fprintf(stderr, "mc ci: %s\n", tally)
	}
	// README.md and the plots must be what the committed tables render to:
	// everything in them is generated.
	md, svg := index(tables)
	files = append([]expectedFile{{path: "README.md", data: []byte(md)}, {path: "worst.svg", data: []byte(svg)}}, files...)
	driftFile := func(file, why string) {
		line := fmt.Sprintf("DRIFT %s %s", file, why)
		fmt.Fprintln(stdout, line)
		suite.Add(junit.Case{Name: file, Classname: "mc ci rendered", Failure: &junit.Outcome{Message: line, Type: "drift"}})
		drift++
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			driftFile(f.path, "is missing")
		case err != nil:
			fmt.Fprintf(stderr, "mc ci: %v\n", err)
			stopped(f.path, "mc ci rendered", err.Error())
			return exitUsage
		case f.check == nil && !bytes.Equal(got, f.data):
			driftFile(f.path, "is not what the committed tables and the recomputed rows render to (edited by hand?)")
		case f.check == nil:
			fmt.Fprintf(stdout, "ok    %s renders from the committed tables and the recomputed rows\n", f.path)
			suite.Add(junit.Case{Name: f.path, Classname: "mc ci rendered"})
		default:
			if err := f.check(got); err != nil {
				driftFile(f.path, err.Error())
				continue
			}
			fmt.Fprintf(stdout, "ok    %s replays to its row's run (the row is not recomputed)\n", f.path)
			suite.Add(junit.Case{Name: f.path, Classname: "mc ci rendered"})
		}
	}
	// A witness run of a checked table that no row has is drift too.
	entries, err := os.ReadDir(filepath.Join(dir, "traces"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "mc ci: %v\n", err)
		stopped("traces", "mc ci rendered", err.Error())
		return exitUsage
	}
	for _, e := range entries {
		path := "traces/" + e.Name()
		if !traces[path] && slices.ContainsFunc(tables, func(t *sweep.Table) bool { return isTraceOf(t.Name, e.Name()) }) {
			driftFile(path, "is no witness run of its table's rows")
		}
	}
	if drift > 0 {
		fmt.Fprintf(stdout, "mc ci: %d rows or files differ from %s; regenerate with %s if the change is intended\n", drift, dir, regenerate)
		return exitFail
	}
	return exitPass
}

// expectedFile is a file of results/ mc ci checks: its path, with slashes,
// and the bytes it must hold, or, for a file that cannot be rendered, the
// check its bytes must pass.
type expectedFile struct {
	path  string
	data  []byte
	check func(data []byte) error
}

// tableFiles are the files of the committed table want, whose classes cfg
// computes, that mc ci checks: its JSON, Markdown and plot rendered from
// it, the witness runs of the rows recomputed rendered from them, and
// those of its other rows, which cannot be rendered without recomputing
// them: each must be its row's run (sweepout.CheckTrace).
func tableFiles(cfg sweep.Config, want, recomputed *sweep.Table) ([]expectedFile, error) {
	committed, err := sweepout.TableFiles(want)
	if err != nil {
		return nil, err
	}
	runs, err := sweepout.TraceFiles(recomputed, version())
	if err != nil {
		return nil, err
	}
	var out []expectedFile
	for _, f := range append(committed, runs...) {
		out = append(out, expectedFile{path: f.Path, data: f.Data})
	}
	for _, r := range want.Rows {
		if r.Cycles > 0 || slices.ContainsFunc(recomputed.Rows, func(g *sweep.Row) bool { return g.N == r.N }) {
			continue
		}
		for _, what := range sweepout.Witnesses {
			check := func(data []byte) error { return sweepout.CheckTrace(cfg, want, r, what, data) }
			out = append(out, expectedFile{path: sweepout.TracePath(want.Name, r.N, what), check: check})
		}
	}
	return out, nil
}

// isTraceOf says whether file, in results/traces, is named as a witness
// run of table name (sweepout.TracePath), for whatever ring size.
func isTraceOf(name, file string) bool {
	rest, ok := strings.CutPrefix(file, name+"-n")
	if !ok {
		return false
	}
	n, _, ok := strings.Cut(rest, "-")
	_, err := strconv.Atoi(n)
	return ok && err == nil
}
