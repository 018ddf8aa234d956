package sweepout

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/sweep"
)

// DefaultSampledSizes are the ring sizes of a sampled sweep without --n.
const DefaultSampledSizes = "16..1024"

// MaxSampledN bounds the sizes a sampled sweep takes: the largest ring a
// simulation of every election spec is known to complete (docs/simulate.md).
const MaxSampledN = 4096

// SampledRequest is a sampled sweep (mc sweep SPEC --sample R) as the
// command line gives it.
type SampledRequest struct {
	Spec, Variant string
	// Ns is --n: "a..b" (the doubling sizes a, 2a, … ≤ b) or a list;
	// "" for DefaultSampledSizes.
	Ns string
	// Runs is R, the simulated runs per size, and Workers the runs made at
	// once; Seed makes the table the same whatever Workers.
	Runs, Workers int
	Seed          uint64
	// Changed says whether a flag was given, as Request's.
	Changed func(flag string) bool
}

// Sampled is a sampled sweep resolved: per ring size, Runs simulated runs
// with random arrangements (mc simulate --random-ids) summarised in one
// row marked sampled, for sizes beyond exhaustive reach (docs/sweeps.md).
type Sampled struct {
	SampledRequest
	Entry   specs.Entry
	Profile specdef.Profile
	Sizes   []int
}

// ResolveSampled checks r before any run: the spec, its profile (which
// must count messages by a ghost counter the simulation reads) and the
// sizes. Its errors are the user's.
func ResolveSampled(r SampledRequest) (*Sampled, error) {
	switch {
	case r.Runs < 1:
		return nil, fmt.Errorf("--sample must be at least 1 run, got %d", r.Runs)
	case r.Workers < 1:
		return nil, fmt.Errorf("--workers must be at least 1, got %d", r.Workers)
	case r.Spec == "all":
		return nil, errors.New("--sample sweeps one spec; give its name, not all")
	}
	e, err := specs.Lookup(r.Spec)
	if err != nil {
		return nil, err
	}
	if e.Anonymous() {
		return nil, fmt.Errorf("spec %s gives its processes no ids; there are no arrangements to sample", e.Name)
	}
	if err := e.Takes.Refuse(e.Name, r.Changed); err != nil {
		return nil, err
	}
	name := ProfileName(e.Name, r.Variant, e.Variants)
	prof, known := ProfileOf(e, name)
	if !known {
		return nil, fmt.Errorf("%s has no sweep profile to sample", name)
	}
	sizes := r.Ns
	if sizes == "" {
		sizes = DefaultSampledSizes
	}
	ns, err := ParseSampledSizes(sizes)
	if err != nil {
		return nil, fmt.Errorf("--n: %v", err)
	}
	s := &Sampled{SampledRequest: r, Entry: e, Profile: prof, Sizes: ns}
	sys, err := e.Simulate(s.params(ns[0]))
	if err != nil {
		return nil, err
	}
	if sys.Info().MessageMeasure() == "" {
		return nil, fmt.Errorf("spec %s has no ghost counter of its messages, which a simulated run counts by (mc simulate); sample a spec that has one", e.Name)
	}
	return s, nil
}

// Table is the empty table of s's rows.
func (s *Sampled) Table() *sweep.SampledTable {
	t := sweep.NewSampledTable(s.Entry.Name, s.Profile, s.Seed, s.Runs)
	t.Oriented = s.Entry.Takes.Has(specdef.Orientation)
	return t
}

// params are the parameters of the profile's spec at n: its ghost
// counters on, ids that each run replaces with its own draw, and for a
// spec without a sense of direction its one fixed orientation
// (orientation).
func (s *Sampled) params(n int) model.Params {
	return model.Params{N: n, IDs: ring.DescendingIDs(n), Variant: s.Profile.Variant, Claims: true, Orientation: s.orientation(n)}
}

// orientation is the orientation a sampled sweep fixes for a spec that
// takes --orientation (vlt): every processor's ports alike, a ring
// oriented by its processors' own sense of left and right. Without one,
// such a spec starts from every orientation assignment, which vlt refuses
// beyond n = 16; a run draws its ids and its schedule, not its
// orientation, so the rows sample that one orientation at every n. Nil
// for the other specs.
func (s *Sampled) orientation(n int) []bool {
	if !s.Entry.Takes.Has(specdef.Orientation) {
		return nil
	}
	return make([]bool, n)
}

// Row simulates the runs at n and summarises them. When a run breaks a
// property or the simulation stops, the row is nil and the report says
// which (Report.Failure, Report.Stopped).
func (s *Sampled) Row(ctx context.Context, n int) (*sweep.SampledRow, *simulate.Report, error) {
	p := s.params(n)
	sys, err := s.Entry.Simulate(p)
	if err != nil {
		return nil, nil, err
	}
	opt := simulate.Options{Seed: s.Seed, Runs: s.Runs, MaxSteps: simulate.DefaultMaxSteps(n), RandomIDs: true, Workers: s.Workers,
		Messages: sys.Info().MessageMeasure()}
	rep, err := simulate.Simulate(ctx, s.Entry.Simulate, p, opt)
	if err != nil || rep.Failure != nil || rep.Stopped != "" {
		return nil, rep, err
	}
	m := rep.Messages
	row := &sweep.SampledRow{N: n, Runs: m.Runs, Mean: m.Mean, Stddev: m.Stddev, CI95: m.CI95, CI99: m.CI99, Best: m.Min, Worst: m.Max, Steps: rep.Steps.Mean}
	row.Fill(s.Profile)
	return row, rep, nil
}

// Reproduce is the mc simulate command that makes run number run at n
// alone.
func (s *Sampled) Reproduce(n, run int) string {
	orientation := ""
	if o := s.orientation(n); o != nil {
		orientation = " --orientation " + model.FormatOrientation(o)
	}
	return fmt.Sprintf("mc simulate %s%s --n %d%s --random-ids --seed %d --run %d",
		s.Entry.Name, sweep.VariantFlag(s.Profile.Variant), n, orientation, s.Seed, run)
}

// WriteSampledDir writes dir/<name>-sampled.json, .md and .svg, through
// WriteFiles.
func WriteSampledDir(dir string, t *sweep.SampledTable) error {
	var js, md, svg strings.Builder
	if err := WriteIndented(&js, t); err != nil {
		return err
	}
	t.WriteMarkdown(&md)
	t.WriteSVG(&svg)
	return WriteFiles(dir, []File{
		{Path: t.Name + ".json", Data: []byte(js.String())},
		{Path: t.Name + ".md", Data: []byte(md.String())},
		{Path: t.Name + ".svg", Data: []byte(svg.String())},
	})
}

// ParseSampledSizes reads the sizes of a sampled sweep: "a..b", the
// doubling sizes a, 2a, 4a, … up to b, or a list "16,100,1000" in
// increasing order, every size from 2 to MaxSampledN.
func ParseSampledSizes(s string) ([]int, error) {
	var out []int
	if lo, hi, found := strings.Cut(s, ".."); found {
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		if errA != nil || errB != nil {
			return nil, fmt.Errorf("%q is not a range a..b (the doubling sizes a, 2a, 4a, … ≤ b)", s)
		}
		if a < 2 || b < a || b > MaxSampledN {
			return nil, fmt.Errorf("range %d..%d: want 2 ≤ a ≤ b ≤ %d", a, b, MaxSampledN)
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
		if n < 2 || n > MaxSampledN || (len(out) > 0 && n <= out[len(out)-1]) {
			return nil, fmt.Errorf("%q: want increasing sizes from 2 to %d", s, MaxSampledN)
		}
		out = append(out, n)
	}
	return out, nil
}
