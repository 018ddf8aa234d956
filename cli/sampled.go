package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

// defaultSampledSizes are the ring sizes of mc sweep --sample without --n.
const defaultSampledSizes = "16..1024"

// maxSampledN bounds the sizes --sample takes: the largest ring a
// simulation of every election spec is known to complete (docs/simulate.md).
const maxSampledN = 4096

// sampledOnly are the flags that only mc sweep --sample takes.
var sampledOnly = []string{"seed"}

// exhaustiveOnly are the flags of mc sweep that --sample refuses: they
// choose arrangements or bound graphs, which a sampled sweep has none of.
var exhaustiveOnly = []string{"ids", "drift", "param", "max-states", "timeout", "db", "no-db", "fresh", "por"}

// runSampled is mc sweep SPEC --sample R: per ring size, R simulated runs
// with random arrangements (mc simulate --random-ids) summarised in one row
// marked sampled, for sizes beyond exhaustive reach (docs/sweeps.md).
func runSampled(ctx context.Context, fs *pflag.FlagSet, f *sweepFlags, stdout, stderr io.Writer) int {
	e, prof, ns, err := f.resolveSampled(fs)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %s\n", printable(err.Error()))
		return exitUsage
	}
	if !fs.Changed("seed") {
		fmt.Fprintf(stderr, "mc sweep: --seed not given: seed %d\n", f.seed)
	}
	t := sweep.NewSampledTable(e.Name, prof, f.seed, f.sample)
	t.Oriented = e.Takes.Has(specdef.Orientation)
	for _, n := range ns {
		row, code := sampleRow(ctx, e, prof, n, f, stderr)
		if row == nil {
			return code
		}
		t.Rows = append(t.Rows, row)
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		for _, r := range t.Rows {
			line := struct {
				jsonStamp
				Name string `json:"name"`
				Seed uint64 `json:"seed"`
				*sweep.SampledRow
			}{stamp(), t.Name, t.Seed, r}
			if err := enc.Encode(line); err != nil {
				return exitInternal
			}
		}
	} else {
		t.WriteText(stdout)
	}
	if f.out != "" {
		if err := writeSampled(f.out, t); err != nil {
			return outputFailed(stderr, "sweep", "--out", f.out, err)
		}
	}
	return exitPass
}

// resolveSampled checks the flags of a sampled sweep before any run: the
// spec, its profile (which must count messages by a ghost counter the
// simulation reads) and the sizes.
func (f *sweepFlags) resolveSampled(fs *pflag.FlagSet) (specs.Entry, specdef.Profile, []int, error) {
	var none specdef.Profile
	for _, name := range exhaustiveOnly {
		if fs.Lookup(name) != nil && fs.Changed(name) {
			return specs.Entry{}, none, nil, fmt.Errorf("--%s does not apply to a sampled sweep (--sample)", name)
		}
	}
	switch {
	case f.sample < 1:
		return specs.Entry{}, none, nil, fmt.Errorf("--sample must be at least 1 run, got %d", f.sample)
	case f.workers < 1:
		return specs.Entry{}, none, nil, fmt.Errorf("--workers must be at least 1, got %d", f.workers)
	case fs.Arg(0) == "all":
		return specs.Entry{}, none, nil, errors.New("--sample sweeps one spec; give its name, not all")
	}
	e, err := specs.Lookup(fs.Arg(0))
	if err != nil {
		return e, none, nil, err
	}
	if e.Anonymous() {
		return e, none, nil, fmt.Errorf("spec %s gives its processes no ids; there are no arrangements to sample", e.Name)
	}
	if err := e.Takes.Refuse(e.Name, fs.Changed); err != nil {
		return e, none, nil, err
	}
	name := sweepout.ProfileName(e.Name, f.variant, e.Variants)
	prof, known := sweepout.ProfileOf(e, name)
	if !known {
		return e, none, nil, fmt.Errorf("%s has no sweep profile to sample", name)
	}
	sizes := f.ns
	if sizes == "" {
		sizes = defaultSampledSizes
	}
	ns, err := parseSampledSizes(sizes)
	if err != nil {
		return e, none, nil, fmt.Errorf("--n: %v", err)
	}
	sys, err := e.Simulate(sampledParams(e, prof, ns[0]))
	if err != nil {
		return e, none, nil, err
	}
	if messageMeasure(sys.Info()) == "" {
		return e, none, nil, fmt.Errorf("spec %s has no ghost counter of its messages, which a simulated run counts by (mc simulate); sample a spec that has one", e.Name)
	}
	return e, prof, ns, nil
}

// sampledParams are the parameters of profile p's spec at n: its ghost
// counters on, ids that each run replaces with its own draw, and for a spec
// without a sense of direction its one fixed orientation
// (sampledOrientation).
func sampledParams(e specs.Entry, p specdef.Profile, n int) model.Params {
	return model.Params{N: n, IDs: ring.DescendingIDs(n), Variant: p.Variant, Claims: true, Orientation: sampledOrientation(e, n)}
}

// sampledOrientation is the orientation a sampled sweep fixes for a spec
// that takes --orientation (vlt): every processor's ports alike, a ring
// oriented by its processors' own sense of left and right. Without one,
// such a spec starts from every orientation assignment, which vlt refuses
// beyond n = 16; a run draws its ids and its schedule, not its orientation,
// so the rows sample that one orientation at every n. Nil for the other
// specs.
func sampledOrientation(e specs.Entry, n int) []bool {
	if !e.Takes.Has(specdef.Orientation) {
		return nil
	}
	return make([]bool, n)
}

// orientationFlag is the --orientation flag that fixes o, "" for nil.
func orientationFlag(o []bool) string {
	if o == nil {
		return ""
	}
	return " --orientation " + model.FormatOrientation(o)
}

// sampleRow simulates R runs at n and summarises them. A run that breaks a
// property ends the sweep: exit 1, with the command that makes it alone.
func sampleRow(ctx context.Context, e specs.Entry, prof specdef.Profile, n int, f *sweepFlags, stderr io.Writer) (*sweep.SampledRow, int) {
	p := sampledParams(e, prof, n)
	sys, err := e.Simulate(p)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: n=%d: %v\n", n, err)
		return nil, exitUsage
	}
	opt := simulate.Options{Seed: f.seed, Runs: f.sample, MaxSteps: simulate.DefaultMaxSteps(n), RandomIDs: true, Workers: f.workers,
		Messages: messageMeasure(sys.Info())}
	rep, err := simulate.Simulate(ctx, e.Simulate, p, opt)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: n=%d: %v\n", n, err)
		return nil, exitUsage
	}
	if rep.Failure != nil {
		fmt.Fprintf(stderr, "mc sweep: n=%d: run %d of seed %d breaks %s; reproduce: mc simulate %s%s --n %d%s --random-ids --seed %d --run %d\n",
			n, rep.Failure.Index, f.seed, rep.Failure.Failure.Property, e.Name, sweep.VariantFlag(prof.Variant), n, orientationFlag(p.Orientation), f.seed, rep.Failure.Index)
		return nil, exitFail
	}
	if rep.Stopped != "" {
		fmt.Fprintf(stderr, "mc sweep: n=%d: stopped: %s\n", n, rep.Stopped)
		return nil, exitIncomplete
	}
	m := rep.Messages
	row := &sweep.SampledRow{N: n, Runs: m.Runs, Mean: m.Mean, Stddev: m.Stddev, CI95: m.CI95, CI99: m.CI99, Best: m.Min, Worst: m.Max, Steps: rep.Steps.Mean}
	row.Fill(prof)
	return row, exitPass
}

// writeSampled writes dir/<name>-sampled.json, .md and .svg.
func writeSampled(dir string, t *sweep.SampledTable) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var js, md, svg strings.Builder
	if err := sweepout.WriteIndented(&js, t); err != nil {
		return err
	}
	t.WriteMarkdown(&md)
	t.WriteSVG(&svg)
	for ext, text := range map[string]string{"json": js.String(), "md": md.String(), "svg": svg.String()} {
		if err := atomicfile.WriteFile(filepath.Join(dir, t.Name+"."+ext), []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

// parseSampledSizes reads the sizes of a sampled sweep: "a..b", the
// doubling sizes a, 2a, 4a, … up to b, or a list "16,100,1000" in
// increasing order, every size from 2 to maxSampledN.
func parseSampledSizes(s string) ([]int, error) {
	var out []int
	if lo, hi, found := strings.Cut(s, ".."); found {
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		if errA != nil || errB != nil {
			return nil, fmt.Errorf("%q is not a range a..b (the doubling sizes a, 2a, 4a, … ≤ b)", s)
		}
		if a < 2 || b < a || b > maxSampledN {
			return nil, fmt.Errorf("range %d..%d: want 2 ≤ a ≤ b ≤ %d", a, b, maxSampledN)
		}
		for n := a; n <= b; n *= 2 {
			out = append(out, n)
		}
		return out, nil
	}
	for _, x := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("%q is not a range a..b or a list of sizes", s)
		}
		if n < 2 || n > maxSampledN || (len(out) > 0 && n <= out[len(out)-1]) {
			return nil, fmt.Errorf("%q: want increasing sizes from 2 to %d", s, maxSampledN)
		}
		out = append(out, n)
	}
	return out, nil
}
