package specdef

import (
	"fmt"
	"strings"
)

// Knob is a set of the command-line parameters that only some specs read.
// A spec lists the ones it takes (Info.Takes); the CLI refuses the others
// for it, with exit 2, before building anything, rather than let a flag
// be silently ignored. A knob a spec takes may still have values the spec
// refuses, with its seed's reason (--chan bag for a spec that needs FIFO
// links).
type Knob uint16

const (
	// IDs: --ids and --all-ids. Specs whose processes have no ids (the
	// mutual-exclusion algorithms) do not take it.
	IDs Knob = 1 << iota
	// Initiators: --initiators, the processes that may start spontaneously.
	Initiators
	// Chan: --chan, the channels' semantics (FIFO or bag).
	Chan
	// Cap: --cap, a bound on what a channel holds.
	Cap
	// Claims: --claims, ghost variables and the claims that read them.
	Claims
	// Drift: --drift, the bound on the drift of local clocks.
	Drift
	// Bound: --bound, the spec's bound on its environment (Defaults.Bound
	// says what it limits).
	Bound
	// Links: --links, the link semantics of a bidirectional ring (half or
	// full duplex), for the specs whose seeds leave it open.
	Links
	// Orientation: --orientation, fixing each processor's local
	// orientation, for the specs whose ring has none in common.
	Orientation
)

// knobs are the knobs with their flags and what they set, in the order
// errors list them.
var knobs = []struct {
	knob       Knob
	flag, sets string
}{{IDs, "ids", "the processes' ids"}, {IDs, "all-ids", "the processes' ids"},
	{Initiators, "initiators", "which processes start"}, {Chan, "chan", "the channels' semantics"},
	{Cap, "cap", "the channels' capacity"}, {Claims, "claims", "ghost variables"},
	{Drift, "drift", "the drift of local clocks"}, {Bound, "bound", "a bound on the environment"},
	{Links, "links", "the link semantics"}, {Orientation, "orientation", "local orientations"}}

// Has reports whether every knob of k is in the set.
func (set Knob) Has(k Knob) bool { return set&k == k }

// Flags are the flags of the knobs in the set, without their dashes.
func (set Knob) Flags() []string {
	var out []string
	for _, kf := range knobs {
		if set.Has(kf.knob) {
			out = append(out, kf.flag)
		}
	}
	return out
}

// Refuse says, in one line, why spec refuses the first flag given (changed
// reports true) whose knob is not in the set; nil when there is none.
func (set Knob) Refuse(spec string, changed func(flag string) bool) error {
	for _, kf := range knobs {
		if !set.Has(kf.knob) && changed(kf.flag) {
			return fmt.Errorf("spec %s does not take --%s (%s); it takes %s (see mc list)", spec, kf.flag, kf.sets, set)
		}
	}
	return nil
}

// String lists the set's flags, "--ids, --all-ids, --chan", or "none".
func (set Knob) String() string {
	fl := set.Flags()
	if len(fl) == 0 {
		return "none"
	}
	return "--" + strings.Join(fl, ", --")
}
