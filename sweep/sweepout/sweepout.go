// Package sweepout is what a sweep command does around package sweep:
// it resolves the command line (spec, profile, ring sizes, one
// arrangement) to a sweep.Config, and writes the table (--json rows,
// the --out directory with its witness runs). mc sweep and mc-beam sweep
// share it, so that their outputs are the same byte for byte.
package sweepout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/internal/filelock"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/paramflags"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/tracefile"
)

// Request is a sweep of one spec as the command line gives it.
type Request struct {
	Spec, Variant string
	Drift         int
	// Params are the values of --param, NAME=VALUE.
	Params []string
	// Ns is --n ("3..7", "5"; "" for the profile's range) and IDs --ids
	// ("all" for every class, or one arrangement "3,1,2").
	Ns, IDs string
	Opt     sweep.CostOptions
	// Changed says whether a flag was given (pflag.FlagSet.Changed): the
	// knobs the spec does not take are refused by it.
	Changed func(flag string) bool
}

// Resolve turns r into the profile's name, the sweep's configuration and
// the ring sizes to sweep. Its errors are the user's.
func Resolve(r Request) (name string, cfg sweep.Config, ns []int, err error) {
	e, err := specs.Lookup(r.Spec)
	if err != nil {
		return "", cfg, nil, err
	}
	if e.Anonymous() {
		return "", cfg, nil, fmt.Errorf("spec %s gives its processes no ids; there are no arrangements to sweep", e.Name)
	}
	if err := e.Takes.Refuse(e.Name, r.Changed); err != nil {
		return "", cfg, nil, err
	}
	// Checked here, before any class is computed: mc-beam's workers found
	// a bad variant inside the pipeline, a dump of many lines.
	if r.Variant != "" {
		if _, err := model.PickVariant(e.Name, e.Variants, r.Variant); err != nil {
			return "", cfg, nil, err
		}
	}
	name = ProfileName(e.Name, r.Variant, e.Variants)
	if r.Drift > 0 {
		if _, ok := ProfileOf(e, fmt.Sprintf("%s-drift%d", name, r.Drift)); ok {
			name = fmt.Sprintf("%s-drift%d", name, r.Drift)
		}
	}
	prof, known := ProfileOf(e, name)
	if !known {
		prof = specdef.Profile{Counted: "all messages", Formula: "— (no bound recorded)"}
	}
	if r.Ns == "" {
		if !known {
			return "", cfg, nil, fmt.Errorf("%s has no default range; give --n", name)
		}
		ns = prof.Ns
	} else if ns, err = ParseRange(r.Ns); err != nil {
		return "", cfg, nil, fmt.Errorf("--n: %v", err)
	}
	cfg = sweep.Config{Spec: e, Profile: prof, Variant: r.Variant, Drift: r.Drift, Opt: r.Opt}
	if cfg.Own, err = paramflags.ParseParams(r.Params); err == nil {
		cfg.Own, err = e.ResolveParams(cfg.Own)
	}
	if err != nil {
		return "", cfg, nil, fmt.Errorf("--param: %v", err)
	}
	if r.IDs != "all" {
		if cfg.IDs, err = ParseInts(r.IDs); err != nil {
			return "", cfg, nil, fmt.Errorf("--ids: %v", err)
		}
		if len(ns) != 1 || ns[0] != len(cfg.IDs) {
			if r.Ns != "" {
				return "", cfg, nil, fmt.Errorf("--ids gives %d ids; --n must be that one size", len(cfg.IDs))
			}
			ns = []int{len(cfg.IDs)}
		}
	}
	return name, cfg, ns, nil
}

// ProfileName is the key of a spec's sweep profile: the spec, or
// spec-variant for a variant other than the first.
func ProfileName(spec, variant string, variants []model.Variant) string {
	if variant == "" || (len(variants) > 0 && variants[0].Name == variant) {
		return spec
	}
	return spec + "-" + variant
}

// ProfileOf is e's profile called name, if it has one.
func ProfileOf(e specs.Entry, name string) (specdef.Profile, bool) {
	for _, p := range e.Sweeps {
		if p.Name == name {
			return p, true
		}
	}
	return specdef.Profile{}, false
}

// WriteJSON prints one JSON object per row of t, one a line, each with
// mc's version and the schema (docs/json.md).
func WriteJSON(w io.Writer, t *sweep.Table) error {
	enc := json.NewEncoder(w)
	for _, r := range t.Rows {
		row := struct {
			runinfo.Stamp
			*sweep.Row
		}{runinfo.ThisStamp(), r}
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return nil
}

// WriteIndented writes v as indented JSON and a newline.
func WriteIndented(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteDir writes dir/<name>.json (Table.Summarized), dir/<name>.md,
// dir/<name>.svg and the witness runs (dir/traces/), as written by
// mcVersion: the files Files renders, through WriteFiles.
func WriteDir(dir string, t *sweep.Table, mcVersion string) error {
	files, err := Files(t, mcVersion)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "traces"), 0o755); err != nil {
		return err
	}
	return WriteFiles(dir, files)
}

// WriteFiles writes files into dir (atomicfile), making the directories
// they go in. It holds a lock on dir while it writes, and removes first
// the temporary files of its files that a process killed while writing
// them left (atomicfile.RemoveStale), and nothing else, so that a writer
// killed and run again leaves the directory an uninterrupted one would.
// Another mc process writing in dir at that moment is an error.
func WriteFiles(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lock, err := filelock.LockDir(dir)
	if errors.Is(err, filelock.ErrLocked) {
		return fmt.Errorf("%s: another mc process is writing there", dir)
	}
	if err != nil {
		return err
	}
	defer lock.Close()
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.RemoveStale(filepath.Dir(path), filepath.Base(path)); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, f.Data); err != nil {
			return err
		}
	}
	return nil
}

// File is one file of a table's: its path in the results directory, with
// slashes, and its bytes.
type File struct {
	Path string
	Data []byte
}

// Files renders the files of table t: TableFiles and TraceFiles. mc sweep
// --out writes them and mc ci compares them, byte for byte.
func Files(t *sweep.Table, mcVersion string) ([]File, error) {
	files, err := TableFiles(t)
	if err != nil {
		return nil, err
	}
	traces, err := TraceFiles(t, mcVersion)
	return append(files, traces...), err
}

// TableFiles renders <name>.json (Table.Summarized), <name>.md and
// <name>.svg, which hold nothing but the table: a table read back from
// its JSON renders them again.
func TableFiles(t *sweep.Table) ([]File, error) {
	var js, md, svg strings.Builder
	if err := WriteIndented(&js, t.Summarized()); err != nil {
		return nil, err
	}
	sweep.WriteMarkdown(&md, t)
	t.WriteSVG(&svg)
	return []File{{t.Name + ".json", []byte(js.String())}, {t.Name + ".md", []byte(md.String())}, {t.Name + ".svg", []byte(svg.String())}}, nil
}

// TraceFiles renders, for each row of t without a cycle, its worst and
// best runs (TracePath), as written by mcVersion. Only rows just computed
// have them: the JSON does not hold the runs.
func TraceFiles(t *sweep.Table, mcVersion string) ([]File, error) {
	var files []File
	for _, r := range t.Rows {
		if r.Cycles > 0 {
			continue
		}
		for _, what := range Witnesses {
			w, err := witnessOf(t, r, what)
			if err != nil {
				return nil, err
			}
			w.prop.Trace = r.WorstRun()
			if what == "best" {
				w.prop.Trace = r.BestRun()
			}
			f, err := tracefile.Build(w.target, w.run, &w.prop, mcVersion)
			if err != nil {
				return nil, err
			}
			f.Property.Kind = tracefile.CostRun
			var b bytes.Buffer
			if err := tracefile.Write(&b, f); err != nil {
				return nil, err
			}
			files = append(files, File{TracePath(t.Name, r.N, what), b.Bytes()})
		}
	}
	return files, nil
}

// TracePath is where the results directory holds table name's witness run
// what ("worst" or "best") at ring size n.
func TracePath(name string, n int, what string) string {
	return fmt.Sprintf("traces/%s-n%d-%s.json", name, n, what)
}

// ParseRange reads "3..7" or "5".
func ParseRange(s string) ([]int, error) {
	lo, hi, found := strings.Cut(s, "..")
	a, err := strconv.Atoi(lo)
	if err != nil {
		return nil, fmt.Errorf("%q is not a size or a range a..b", s)
	}
	b := a
	if found {
		if b, err = strconv.Atoi(hi); err != nil {
			return nil, fmt.Errorf("%q is not a range a..b", s)
		}
	}
	if a < 2 || b < a || b > 9 {
		return nil, fmt.Errorf("range %d..%d: want 2 ≤ a ≤ b ≤ 9", a, b)
	}
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out, nil
}

// ParseInts reads "3,1,2".
func ParseInts(s string) ([]int, error) {
	var out []int
	for _, x := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("%q is not a list of integers", s)
		}
		out = append(out, v)
	}
	return out, nil
}
