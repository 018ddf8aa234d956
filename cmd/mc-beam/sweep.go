package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ringcheck/mc/cmdflags"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/runstore/dbflags"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

func init() {
	register.DoFn3x1[context.Context, classJob, func(int, []byte), error](&classFn{})
	register.Emitter2[int, []byte]()
	register.Combiner3[rowClasses, []byte, rowClasses](&gatherFn{})
	register.DoFn3x1[context.Context, int, rowClasses, error](&writeRowFn{})
}

// sweepFlags are mc sweep's flags, less --sample's, --max-memory,
// --workers and --por.
type sweepFlags struct {
	cmdflags.Sweep
	db   dbflags.Flags
	work string
	beam beamFlags
}

// runSweep is mc-beam sweep SPEC: mc sweep's table, each arrangement
// class that the run store does not hold checked by a pipeline worker.
// Its output is mc sweep's, byte for byte: the classes are resolved
// (sweepout.Resolve), costed (sweep Config.Class) and aggregated
// (Config.Aggregate) by the same code, and looked up and saved under the
// same keys, so that each reuses the other's classes.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	var f sweepFlags
	var dbDir string
	fs := newFlagSet("sweep", "SPEC --n A..B [flags]", stdout)
	f.Sweep.Add(fs)
	fs.StringVar(&f.work, "work", "", "directory (any Beam filesystem: a local path, gs://…) where the workers leave each row's classes (default: a temporary directory, removed)")
	f.db.Add(fs)
	f.db.AddOff(fs)
	f.db.AddFresh(fs)
	f.beam.add(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if len(positional(fs)) != 1 {
		fmt.Fprintln(stderr, "mc-beam sweep: want exactly one SPEC (see mc-beam sweep --help)")
		return exitUsage
	}
	req := sweepRequest{Spec: positional(fs)[0], Flags: f.Sweep}
	if f.MaxStates < 0 || f.Timeout < 0 {
		fmt.Fprintln(stderr, "mc-beam sweep: --max-states and --timeout must not be negative")
		return exitUsage
	}
	name, cfg, ns, err := req.resolve(fs.Changed)
	if err == nil {
		dbDir, err = f.db.Path(fs, defaultDB)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam sweep: %v\n", err)
		return exitUsage
	}
	if code, ok := f.beam.setUp(fs, stderr); !ok {
		return code
	}
	work, done, err := workDir(ctx, f.work)
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam sweep: --work: %v\n", err)
		return exitUsage
	}
	defer done()
	store, code := openStore(dbDir, stderr)
	if code != exitPass {
		return code
	}
	if store != nil {
		cfg.Store = store
		defer func() {
			if err := store.Close(); err != nil {
				storeFailed(err, stderr)
				if code == exitPass {
					code = dbflags.Exit(err)
				}
			}
		}()
	}
	cfg.Fresh = f.db.Fresh
	t := sweep.NewTable(name, cfg)
	rows, computed, err := sweepRows(ctx, &f.beam, req, cfg, ns, work)
	var stopped *sweep.Incomplete
	switch {
	case errors.As(err, &stopped):
		// mc sweep's stop: incomplete, with what stopped the graph.
		fmt.Fprintf(stderr, "mc-beam sweep: incomplete: %s\n", stopped)
		return exitIncomplete
	case dbflags.IsStore(err):
		storeFailed(err, stderr)
		return dbflags.Exit(err)
	case err != nil:
		fmt.Fprintf(stderr, "mc-beam sweep: %v\n", err)
		return exitUsage
	}
	t.Rows = rows
	if store != nil {
		// mc sweep's line: what the store saved this sweep.
		fmt.Fprintf(stderr, "mc-beam sweep %s: %d reused, %d computed\n", name, classCount(rows)-computed, computed)
	}
	if f.JSON {
		err = sweepout.WriteJSON(stdout, t)
	} else {
		sweep.WriteText(stdout, t)
	}
	if err == nil && f.Out != "" {
		err = sweepout.WriteDir(f.Out, t, runinfo.ThisBuild().Version)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc-beam sweep: %v\n", err)
		return exitInternal
	}
	return exitPass
}

// sweepRequest is what a worker needs to rebuild the sweep's
// configuration: the command line, as plain fields that Beam serializes
// with the DoFn.
type sweepRequest struct {
	Spec  string
	Flags cmdflags.Sweep
}

func (r sweepRequest) resolve(changed func(string) bool) (string, sweep.Config, []int, error) {
	return sweepout.Resolve(r.Flags.Request(r.Spec, changed))
}

// classJob is one arrangement class of ring size N, the Index-th that
// sweep.Config.Classes lists.
type classJob struct {
	N, Index, Size int
	IDs            []int
}

// sweepRows is the rows of ns, and how many of their classes were
// computed. The classes cfg.Store holds are taken from it (Config.Stored)
// by the driver; the others go through one pipeline for all of ns: a
// PCollection of classes, a ParDo that costs each (classFn), a per-size
// combine that gathers a row's classes in their order (gatherFn), written
// to work by writeRowFn. The driver then saves the classes computed
// (Config.Keep) and aggregates each row as mc sweep does. With every
// class in the store, no pipeline runs.
func sweepRows(ctx context.Context, b *beamFlags, req sweepRequest, cfg sweep.Config, ns []int, work string) (rows []*sweep.Row, computed int, err error) {
	as := make([][]Arrangement, len(ns))
	var jobs []classJob
	for i, n := range ns {
		classes, err := cfg.Classes(n)
		if err != nil {
			return nil, 0, err
		}
		as[i] = make([]Arrangement, len(classes))
		for j, cl := range classes {
			a, found, err := cfg.Stored(n, cl)
			if err != nil {
				return nil, 0, err
			}
			if found {
				as[i][j] = a
				continue
			}
			jobs = append(jobs, classJob{N: n, Index: j, Size: cl.Size, IDs: cl.Rep})
		}
	}
	if len(jobs) > 0 {
		p, s := beam.NewPipelineWithRoot()
		costs := beam.ParDo(s, &classFn{Req: req}, beam.CreateList(s, jobs))
		gathered := beam.CombinePerKey(s, &gatherFn{}, costs)
		beam.ParDo0(s, &writeRowFn{Work: work}, gathered)
		if err := b.execute(ctx, p); err != nil {
			return nil, 0, fmt.Errorf("pipeline: %v", err)
		}
	}
	for i, n := range ns {
		if !slices.ContainsFunc(jobs, func(j classJob) bool { return j.N == n }) {
			continue
		}
		var rc rowClasses
		if err := readJSON(ctx, rowPath(work, n), &rc); err != nil {
			return nil, 0, err
		}
		for _, c := range rc {
			if c.Incomplete != nil {
				return nil, 0, c.Incomplete
			}
			a, err := sweep.UnmarshalClass(c.Cost)
			if err != nil {
				return nil, 0, fmt.Errorf("n=%d class %d: %v", n, c.Index, err)
			}
			if err := cfg.Keep(n, a); err != nil {
				return nil, 0, err
			}
			as[i][c.Index] = a
		}
	}
	for i, n := range ns {
		rows = append(rows, cfg.Aggregate(n, as[i]))
	}
	return rows, len(jobs), nil
}

// classCount is how many classes rows have.
func classCount(rows []*sweep.Row) int {
	total := 0
	for _, r := range rows {
		total += r.Classes
	}
	return total
}

// Arrangement is sweep's: a class's cost.
type Arrangement = sweep.Arrangement

// classFn costs one class with the code mc sweep runs (Config.Class) and
// emits it keyed by its ring size, in the run store's encoding.
type classFn struct {
	Req sweepRequest
	cfg sweep.Config
}

func (f *classFn) Setup() error {
	_, cfg, _, err := f.Req.resolve(func(string) bool { return false })
	f.cfg = cfg
	return err
}

func (f *classFn) ProcessElement(ctx context.Context, j classJob, emit func(int, []byte)) error {
	a, _, err := f.cfg.Class(ctx, j.N, ring.ArrangementClass{Rep: j.IDs, Size: j.Size})
	var stopped *sweep.Incomplete
	ic := indexedClass{Index: j.Index}
	switch {
	case errors.As(err, &stopped):
		// A limit (--max-states, --timeout) stopped the class's graph:
		// the row is incomplete, which the driver says as mc sweep does,
		// not a failure of the pipeline (Beam's stack trace, exit 4).
		ic.Incomplete = stopped
	case err != nil:
		return err
	default:
		if ic.Cost, err = sweep.MarshalClass(a); err != nil {
			return err
		}
	}
	c, err := json.Marshal(ic)
	if err != nil {
		return err
	}
	emit(j.N, c)
	return nil
}

// indexedClass is a class's cost and its place in its row, or what
// stopped its graph.
type indexedClass struct {
	Index      int               `json:"index"`
	Cost       json.RawMessage   `json:"cost,omitempty"`
	Incomplete *sweep.Incomplete `json:"incomplete,omitempty"`
}

// rowClasses are the classes of one row gathered so far, in their order.
type rowClasses []indexedClass

// gatherFn combines the classes of a row into one list in class order:
// the same list whatever order the workers finish in.
type gatherFn struct{}

func (gatherFn) CreateAccumulator() rowClasses { return nil }

func (gatherFn) AddInput(acc rowClasses, c []byte) (rowClasses, error) {
	var ic indexedClass
	if err := json.Unmarshal(c, &ic); err != nil {
		return nil, err
	}
	return gatherFn{}.MergeAccumulators(acc, rowClasses{ic}), nil
}

func (gatherFn) MergeAccumulators(a, b rowClasses) rowClasses {
	out := append(append(rowClasses{}, a...), b...)
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// writeRowFn leaves a row's classes in work for the driver.
type writeRowFn struct{ Work string }

func (f *writeRowFn) ProcessElement(ctx context.Context, n int, rc rowClasses) error {
	return writeJSON(ctx, rowPath(f.Work, n), rc)
}

func rowPath(work string, n int) string { return fmt.Sprintf("%s/sweep-n%d.json", work, n) }
