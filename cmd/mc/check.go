package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"mc/checker"
	"mc/model"
	"mc/specs"
)

// checkFlags are the flags of mc check.
type checkFlags struct {
	n          int
	ids        string
	variant    string
	chanKind   string
	capacity   int
	initiators string
	maxStates  int64
	timeout    time.Duration
	json       bool
	claims     bool
	fair       string
	bound      int
}

func newCheckFlagSet(f *checkFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mc check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by runCheck
	fs.IntVar(&f.n, "n", 0, "ring size (default: the spec's, see mc list; or the number of --ids)")
	fs.StringVar(&f.ids, "ids", "", "comma-separated ids, process 0's first (default n,n-1,…,1)")
	fs.StringVar(&f.variant, "variant", "", "spec variant (default: the spec's first, see mc list)")
	fs.StringVar(&f.chanKind, "chan", "fifo", "channel semantics: fifo or bag")
	fs.IntVar(&f.capacity, "cap", 0, "channel capacity; a send to a full channel blocks (default unbounded)")
	fs.StringVar(&f.initiators, "initiators", "", "comma-separated processes that may start spontaneously (default all)")
	fs.Int64Var(&f.maxStates, "max-states", 0, "stop, incomplete, after this many distinct states (default no limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop, incomplete, after this long, e.g. 30s (default none)")
	fs.BoolVar(&f.claims, "claims", false, "turn on ghost (history) variables and the papers' claims that read them")
	fs.StringVar(&f.fair, "fair", "", "fairness for liveness properties: none, process (weak, per process) or action (weak, per rule) (default: the spec's, see mc list)")
	fs.IntVar(&f.bound, "bound", 0, "the spec's bound on its environment, e.g. requests per process (see mc list; default: the spec's)")
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
		err = f.checkLimits(fs)
	}
	fair := entry.Fair
	if fs.Changed("fair") {
		var ferr error
		if fair, ferr = checker.ParseFairness(f.fair); err == nil && ferr != nil {
			err = fmt.Errorf("--fair: %v", ferr)
		}
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
	res := target.Check(ctx, checker.Options{MaxStates: f.maxStates, Timeout: f.timeout, Fair: fair})
	if res.Err != nil {
		fmt.Fprintf(stderr, "mc check: %v\nThis is a bug in mc; please report it with the command line above.\n", res.Err)
		return exitInternal
	}
	if f.json {
		if err := writeJSON(stdout, &res, fair); err != nil {
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
func (f *checkFlags) params(fs *pflag.FlagSet, entry specs.Entry) (model.Params, error) {
	var p model.Params
	defaultN := entry.DefaultN
	kind, err := model.ParseChanKind(f.chanKind)
	if err != nil {
		return p, err
	}
	if !fs.Changed("chan") {
		kind = entry.Chan
	}
	p.Chan, p.Cap, p.Variant, p.Claims, p.Bound = kind, f.capacity, f.variant, f.claims, f.bound
	if fs.Changed("bound") {
		switch {
		case entry.Bound == "":
			return p, fmt.Errorf("spec %s has no --bound", entry.Name)
		case f.bound <= 0:
			return p, fmt.Errorf("--bound must be positive, got %d", f.bound)
		}
	}
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
		p.N, p.IDs = f.n, model.DescendingIDs(f.n)
	default:
		p.N, p.IDs = defaultN, model.DescendingIDs(defaultN)
	}
	if f.initiators != "" {
		if p.Initiators, err = model.ParseInts(f.initiators); err != nil {
			return p, fmt.Errorf("--initiators: %v", err)
		}
	}
	return p, nil
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

// describeParams renders the parameters of a run on one line.
func describeParams(p *model.Params) string {
	ids := make([]string, len(p.IDs))
	for i, id := range p.IDs {
		ids[i] = fmt.Sprint(id)
	}
	init := "all"
	if p.Initiators != nil {
		xs := make([]string, len(p.Initiators))
		for i, x := range p.Initiators {
			xs[i] = fmt.Sprint(x)
		}
		init = strings.Join(xs, ",")
	}
	s := fmt.Sprintf("n=%d ids=%s chan=%s initiators=%s", p.N, strings.Join(ids, ","), p.Chan, init)
	if p.Cap > 0 {
		s += fmt.Sprintf(" cap=%d", p.Cap)
	}
	if p.Bound > 0 {
		s += fmt.Sprintf(" bound=%d", p.Bound)
	}
	if p.Claims {
		s += " claims=on"
	}
	return s
}
