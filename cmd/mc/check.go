package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"mc/checker"
	"mc/model"
	"mc/specs"
)

// checkFlags are the flags of mc check.
type checkFlags struct {
	n           int
	ids         string
	variant     string
	chanKind    string
	capacity    int
	initiators  string
	maxStates   int64
	timeout     time.Duration
	json        bool
	claims      bool
	links       string
	orientation string
}

func newCheckFlagSet(f *checkFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mc check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by runCheck
	fs.IntVar(&f.n, "n", 0, "ring size (default: the spec's, see mc list; or the number of --ids)")
	fs.StringVar(&f.ids, "ids", "", "comma-separated ids, process 0's first (default n,n-1,…,1, or the spec's, see mc list)")
	fs.StringVar(&f.variant, "variant", "", "spec variant (default: the spec's first, see mc list)")
	fs.StringVar(&f.chanKind, "chan", "fifo", "channel semantics: fifo or bag")
	fs.IntVar(&f.capacity, "cap", 0, "channel capacity; a send to a full channel blocks (default unbounded)")
	fs.StringVar(&f.links, "links", "", "bidirectional rings: link semantics, half or full (default: the spec variant's)")
	fs.StringVar(&f.orientation, "orientation", "", "bidirectional rings: fix every processor's orientation, a bit string such as 0110 (1: its right port leads counter-clockwise; default every assignment)")
	fs.StringVar(&f.initiators, "initiators", "", "comma-separated processes that may start spontaneously (default all)")
	fs.Int64Var(&f.maxStates, "max-states", 0, "stop, incomplete, after this many distinct states (default no limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop, incomplete, after this long, e.g. 30s (default none)")
	fs.BoolVar(&f.claims, "claims", false, "turn on ghost (history) variables and the papers' claims that read them")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the human summary")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mc check SPEC [flags]\n\n%s", fs.FlagUsages())
	}
	return fs
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newCheckFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			fs.Usage()
			return exitPass
		}
		fmt.Fprintf(stderr, "mc check: %v (see mc check --help)\n", err)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mc check: want exactly one spec name (see mc list)")
		return exitUsage
	}
	entry, err := specs.Lookup(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
	}
	p, err := f.params(fs, entry)
	if err == nil {
		err = f.bidirectional(fs, entry, &p)
	}
	if err == nil {
		err = f.checkLimits(fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
	}
	target, err := entry.Build(p)
	if err != nil {
		fmt.Fprintf(stderr, "mc check: %v\n", err)
		return exitUsage
	}
	res := target.Check(ctx, checker.Options{MaxStates: f.maxStates, Timeout: f.timeout})
	if res.Err != nil {
		fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", res.Err)
		return exitInternal
	}
	if f.json {
		if err := writeJSON(stdout, &res); err != nil {
			fmt.Fprintf(stderr, "mc check: %v\n", err)
			return exitInternal
		}
	} else {
		writeHuman(stdout, &res)
	}
	switch res.Verdict {
	case checker.Pass:
		return exitPass
	case checker.Fail:
		return exitFail
	}
	return exitIncomplete
}

// params turns the flags into validated-later spec parameters.
func (f *checkFlags) params(fs *pflag.FlagSet, e specs.Entry) (model.Params, error) {
	var p model.Params
	kind, err := model.ParseChanKind(f.chanKind)
	if err != nil {
		return p, err
	}
	p.Chan, p.Cap, p.Variant, p.Claims = kind, f.capacity, f.variant, f.claims
	if fs.Changed("cap") && f.capacity <= 0 {
		return p, fmt.Errorf("--cap must be positive, got %d", f.capacity)
	}
	switch {
	case f.ids != "":
		ids, err := model.ParseInts(f.ids)
		if err != nil {
			return p, fmt.Errorf("--ids: %v", err)
		}
		p.IDs, p.N = ids, len(ids)
		if fs.Changed("n") && f.n != len(ids) {
			return p, fmt.Errorf("--n %d but --ids lists %d ids", f.n, len(ids))
		}
	case fs.Changed("n"):
		if f.n < 2 {
			return p, fmt.Errorf("--n must be at least 2, got %d", f.n)
		}
		p.N, p.IDs = f.n, e.IDs(f.n)
	default:
		p.N, p.IDs = e.DefaultN, e.IDs(e.DefaultN)
	}
	if f.initiators != "" {
		if p.Initiators, err = model.ParseInts(f.initiators); err != nil {
			return p, fmt.Errorf("--initiators: %v", err)
		}
	}
	return p, nil
}

// bidirectional reads --links and --orientation, which only bidirectional
// specs take.
func (f *checkFlags) bidirectional(fs *pflag.FlagSet, e specs.Entry, p *model.Params) error {
	if !e.Bidirectional {
		for _, name := range []string{"links", "orientation"} {
			if fs.Changed(name) {
				return fmt.Errorf("--%s applies to bidirectional rings; spec %s runs on a unidirectional ring", name, e.Name)
			}
		}
		return nil
	}
	var err error
	if fs.Changed("links") {
		if p.Links, err = model.ParseLinkMode(f.links); err != nil {
			return fmt.Errorf("--links: %v", err)
		}
	}
	if fs.Changed("orientation") {
		if p.Orientation, err = model.ParseOrientation(f.orientation, p.N); err != nil {
			return fmt.Errorf("--orientation: %v", err)
		}
	}
	return nil
}

func (f *checkFlags) checkLimits(fs *pflag.FlagSet) error {
	if fs.Changed("max-states") && f.maxStates <= 0 {
		return fmt.Errorf("--max-states must be positive, got %d", f.maxStates)
	}
	if fs.Changed("timeout") && f.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, got %s", f.timeout)
	}
	return nil
}

// describeParams renders the parameters of a run on one line. A
// bidirectional run (its spec resolved Links) names its link semantics and
// the orientation assignments it starts from.
func describeParams(p *model.Params) string {
	init := "all"
	if p.Initiators != nil {
		init = joinInts(p.Initiators)
	}
	s := fmt.Sprintf("n=%d ids=%s chan=%s initiators=%s", p.N, joinInts(p.IDs), p.Chan, init)
	if p.Cap > 0 {
		s += fmt.Sprintf(" cap=%d", p.Cap)
	}
	if p.Links != model.DefaultLinks {
		s += fmt.Sprintf(" links=%s %s", p.Links, describeOrientations(p))
	}
	if p.Claims {
		s += " claims=on"
	}
	return s
}

// describeOrientations says which orientation assignments a bidirectional
// run checks: "orientation=0110", or "orientations=every assignment (32)".
func describeOrientations(p *model.Params) string {
	if p.Orientation != nil {
		return "orientation=" + model.FormatOrientation(p.Orientation)
	}
	return fmt.Sprintf("orientations=every assignment up to symmetry (%d, one initial state each)", len(p.Orientations()))
}
