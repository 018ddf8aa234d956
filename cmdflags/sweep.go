package cmdflags

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

// Sweep are the flags of mc sweep that mc-beam sweep takes too: which
// spec, variant, sizes and arrangements, the output, and the bounds on
// each class.
type Sweep struct {
	Ns, IDs, Variant, Out string
	JSON                  bool
	Drift                 int
	// Params are --param's NAME=VALUE.
	Params    []string
	MaxStates int64
	Timeout   time.Duration
}

// Add adds --n, --ids, --variant, --json, --out, --drift, --param,
// --max-states and --timeout, in that order.
func (s *Sweep) Add(fs *pflag.FlagSet) {
	fs.StringVar(&s.Ns, "n", "", "ring sizes, e.g. 3..7 or 5 (default: the range results/ covers)")
	fs.StringVar(&s.IDs, "ids", "all", "all (one arrangement per symmetry class) or one arrangement a,b,c")
	fs.StringVar(&s.Variant, "variant", "", "spec variant (default: the spec's first)")
	fs.BoolVar(&s.JSON, "json", false, "print one JSON object per n")
	fs.StringVar(&s.Out, "out", "", "write <name>.json, <name>.md, <name>.svg and the witness runs (traces/) to this directory; mc sweep all also writes README.md and worst.svg")
	fs.IntVar(&s.Drift, "drift", 0, "clock-based specs: the drift bound (see mc check --help)")
	fs.StringArrayVar(&s.Params, "param", nil, "one of the spec's own parameters, `NAME=VALUE`; repeat for each (see mc check --help)")
	fs.Int64Var(&s.MaxStates, "max-states", 0, "give up on an arrangement whose graph exceeds this many states")
	fs.DurationVar(&s.Timeout, "timeout", 0, "give up on an arrangement whose graph takes longer than this")
}

// Request is the sweep of spec that the flags ask for; changed is the
// flag set's Changed.
func (s *Sweep) Request(spec string, changed func(string) bool) sweepout.Request {
	return sweepout.Request{Spec: spec, Variant: s.Variant, Drift: s.Drift, Params: s.Params, Ns: s.Ns, IDs: s.IDs,
		Opt: sweep.CostOptions{MaxStates: s.MaxStates, Timeout: s.Timeout}, Changed: changed}
}
