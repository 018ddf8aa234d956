package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

// sampledOnly are the flags that only mc sweep --sample takes.
var sampledOnly = []string{"seed"}

// exhaustiveOnly are the flags of mc sweep that --sample refuses: they
// choose arrangements or bound graphs, which a sampled sweep has none of.
var exhaustiveOnly = []string{"ids", "drift", "param", "max-states", "timeout", "db", "no-db", "fresh", "por"}

// runSampled is mc sweep SPEC --sample R: per ring size, R simulated runs
// with random arrangements, as sweepout.Sampled makes them.
func runSampled(ctx context.Context, fs *pflag.FlagSet, f *sweepFlags, stdout, stderr io.Writer) int {
	s, err := f.resolveSampled(fs)
	if err != nil {
		fmt.Fprintf(stderr, "mc sweep: %s\n", printable(err.Error()))
		return exitUsage
	}
	if !fs.Changed("seed") {
		fmt.Fprintf(stderr, "mc sweep: --seed not given: seed %d\n", f.seed)
	}
	t := s.Table()
	for _, n := range s.Sizes {
		row, code := sampleRow(ctx, s, n, stderr)
		if row == nil {
			return code
		}
		t.Rows = append(t.Rows, row)
	}
	if f.JSON {
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
	if f.Out != "" {
		if err := sweepout.WriteSampledDir(f.Out, t); err != nil {
			return outputFailed(stderr, "sweep", "--out", f.Out, err)
		}
	}
	return exitPass
}

// resolveSampled refuses the flags a sampled sweep does not take, then
// resolves the rest (sweepout.ResolveSampled), all before any run.
func (f *sweepFlags) resolveSampled(fs *pflag.FlagSet) (*sweepout.Sampled, error) {
	for _, name := range exhaustiveOnly {
		if fs.Lookup(name) != nil && fs.Changed(name) {
			return nil, fmt.Errorf("--%s does not apply to a sampled sweep (--sample)", name)
		}
	}
	return sweepout.ResolveSampled(sweepout.SampledRequest{Spec: fs.Arg(0), Variant: f.Variant, Ns: f.Ns,
		Runs: f.sample, Workers: f.workers, Seed: f.seed, Changed: fs.Changed})
}

// sampleRow is the row of n. A run that breaks a property ends the sweep:
// exit 1, with the command that makes it alone.
func sampleRow(ctx context.Context, s *sweepout.Sampled, n int, stderr io.Writer) (*sweep.SampledRow, int) {
	row, rep, err := s.Row(ctx, n)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "mc sweep: n=%d: %v\n", n, err)
		return nil, exitUsage
	case rep.Failure != nil:
		fmt.Fprintf(stderr, "mc sweep: n=%d: run %d of seed %d breaks %s; reproduce: %s\n",
			n, rep.Failure.Index, s.Seed, rep.Failure.Failure.Property, s.Reproduce(n, rep.Failure.Index))
		return nil, exitFail
	case rep.Stopped != "":
		fmt.Fprintf(stderr, "mc sweep: n=%d: stopped: %s\n", n, rep.Stopped)
		return nil, exitIncomplete
	}
	return row, exitPass
}
