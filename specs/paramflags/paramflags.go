// Package paramflags reads a spec's parameters (ring size, ids, variant,
// channels, initiators, …) from command-line flags: the flags mc check,
// mc explore and mc simulate take, and mc-beam check takes too, so that
// the same flags mean the same system in every command.
package paramflags

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// Names are the flags that choose a spec's parameters.
var Names = []string{"n", "ids", "variant", "chan", "cap", "initiators", "claims", "drift", "links", "orientation", "bound", "param"}

// Flags holds the values of the flags Names lists.
type Flags struct {
	N           int
	IDs         string
	Variant     string
	Chan        string
	Cap         int
	Initiators  string
	Links       string
	Orientation string
	Drift       int
	Claims      bool
	Bound       int
	// Largest, if not 0, is the largest ring the command explores (mc
	// check's checker.MaxProcs): larger is refused, as the spec's own
	// largest (specdef.Info.MaxN) is, before any id is made.
	Largest int
	// Own are the --param values, NAME=VALUE, in the order given.
	Own []string
}

// Add defines the flags on fs.
func (f *Flags) Add(fs *pflag.FlagSet) {
	fs.IntVar(&f.N, "n", 0, "ring size (default: the spec's, see mc list; or the number of --ids)")
	fs.StringVar(&f.IDs, "ids", "", "comma-separated ids, process 0's first (default n,n-1,…,1, or the spec's, see mc list)")
	fs.StringVar(&f.Variant, "variant", "", "spec variant (default: the spec's first, see mc list)")
	fs.StringVar(&f.Chan, "chan", "fifo", "channel semantics: fifo or bag")
	fs.IntVar(&f.Cap, "cap", 0, "channel capacity; a send to a full channel blocks (default unbounded)")
	fs.StringVar(&f.Initiators, "initiators", "", "comma-separated processes that may start spontaneously (default all)")
	fs.StringVar(&f.Links, "links", "", "bidirectional rings: link semantics, half or full (default: the spec variant's)")
	fs.StringVar(&f.Orientation, "orientation", "", "bidirectional rings: fix every processor's orientation, a bit string such as 0110 (1: its right port leads counter-clockwise; default every assignment)")
	fs.IntVar(&f.Drift, "drift", 0, "clock-based specs: no processor completes more than K ticks while another completes none (default 0: unbounded)")
	fs.BoolVar(&f.Claims, "claims", false, "turn on ghost (history) variables and the papers' claims that read them")
	fs.IntVar(&f.Bound, "bound", 0, "the spec's bound on its environment, e.g. requests per process (see mc list; default: the spec's)")
	fs.StringArrayVar(&f.Own, "param", nil, "one of the spec's own parameters, `NAME=VALUE`, e.g. k=3; repeat for each (see mc list; default: the spec's)")
}

// Params turns the flags into the parameters of the spec e describes,
// which its Build validates further. The knobs e does not take must have
// been refused already (specdef.Takes.Refuse). It reads the spec's
// description alone, not the registry, which binds specs to the checker
// (specs/imports_test.go).
func (f *Flags) Params(fs *pflag.FlagSet, e specdef.Info) (model.Params, error) {
	p, err := f.params(fs, e)
	if err == nil {
		err = f.bidirectional(fs, &p)
	}
	return p, err
}

func (f *Flags) params(fs *pflag.FlagSet, e specdef.Info) (model.Params, error) {
	var p model.Params
	kind, err := model.ParseChanKind(f.Chan)
	if err != nil {
		return p, err
	}
	if !fs.Changed("chan") {
		kind = e.Defaults.Chan
	}
	p.Chan, p.Cap, p.Variant, p.Claims, p.Drift, p.Bound = kind, f.Cap, f.Variant, f.Claims, f.Drift, f.Bound
	if fs.Changed("bound") && f.Bound <= 0 {
		return p, fmt.Errorf("--bound must be positive, got %d", f.Bound)
	}
	if f.Drift < 0 {
		return p, fmt.Errorf("--drift must be 0 (unbounded) or positive, got %d", f.Drift)
	}
	if fs.Changed("cap") && f.Cap <= 0 {
		return p, fmt.Errorf("--cap must be positive, got %d", f.Cap)
	}
	switch {
	case fs.Changed("ids"):
		ids, err := model.ParseInts(f.IDs)
		if err != nil {
			return p, fmt.Errorf("--ids: %v (leave the flag out for the spec's ids)", err)
		}
		p.IDs, p.N = ids, len(ids)
		if fs.Changed("n") && f.N != len(ids) {
			return p, fmt.Errorf("--n %d but --ids lists %d ids", f.N, len(ids))
		}
		if err := f.checkSize(e, p.N); err != nil {
			return p, err
		}
	case fs.Changed("n"):
		if f.N < 2 {
			return p, fmt.Errorf("--n must be at least 2, got %d", f.N)
		}
		if err := f.checkSize(e, f.N); err != nil {
			return p, err
		}
		p.N, p.IDs = f.N, e.IDs(f.N)
	default:
		p.N, p.IDs = e.Defaults.N, e.IDs(e.Defaults.N)
	}
	if fs.Changed("initiators") {
		if p.Initiators, err = model.ParseInts(f.Initiators); err != nil {
			return p, fmt.Errorf("--initiators: %v (leave the flag out for every process)", err)
		}
	}
	if p.Own, err = ParseParams(f.Own); err == nil {
		p.Own, err = e.ResolveParams(p.Own)
	}
	if err != nil {
		return p, fmt.Errorf("--param: %v", err)
	}
	return p, nil
}

// checkSize refuses a ring of n processes larger than e or the command
// holds. It comes before anything of size n is made: making and
// validating the ids of a huge ring alone held the process for long, deaf
// to signals, before the spec refused the ring.
func (f *Flags) checkSize(e specdef.Info, n int) error {
	switch {
	case e.MaxN > 0 && n > e.MaxN:
		return fmt.Errorf("--n %d: spec %s supports rings of at most %d processes", n, e.Name, e.MaxN)
	case f.Largest > 0 && n > f.Largest:
		return fmt.Errorf("--n %d: the checker explores rings of at most %d processes (mc simulate takes larger ones)", n, f.Largest)
	}
	return nil
}

// bidirectional reads --links and --orientation, which only the specs that
// model link semantics and local orientations take (specdef.Links,
// specdef.Orientation; hs and franklin run on bidirectional rings too, but
// with full-duplex links and a common orientation fixed by their seeds).
func (f *Flags) bidirectional(fs *pflag.FlagSet, p *model.Params) error {
	var err error
	if fs.Changed("links") {
		if p.Duplex, err = model.ParseDuplex(f.Links); err != nil {
			return fmt.Errorf("--links: %v", err)
		}
	}
	if fs.Changed("orientation") {
		if p.Orientation, err = model.ParseOrientation(f.Orientation, p.N); err != nil {
			return fmt.Errorf("--orientation: %v", err)
		}
	}
	return nil
}
