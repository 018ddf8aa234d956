package checker

import (
	"fmt"

	"mc/model"
)

// CanReduce refuses partial-order reduction where it would be unsound or is
// not supported: with the disk store, whose lookups during a level see only
// the two most recent levels, so the cycle proviso (C3 in package por's doc)
// cannot be checked; with checkpoints, which do not save the state indices
// the proviso reads; and with properties of a kind other than invariant,
// step, end and witness (liveness), which package por's conditions do
// not preserve, unless opt.Safety leaves liveness unchecked.
func CanReduce(opt Options, props []PropInfo) error {
	switch {
	case opt.Disk != "":
		return fmt.Errorf("partial-order reduction needs to know where every stored state was stored, for its cycle proviso, and the disk store cannot say; use --store memory (or --exact) with --por")
	case opt.Checkpoint != "" || opt.Resume:
		return fmt.Errorf("partial-order reduction cannot be checkpointed or resumed: checkpoints do not save the state indices its cycle proviso reads")
	}
	for _, p := range props {
		switch {
		case p.Kind == model.Invariant, p.Kind == model.Step, p.Kind == model.End, p.Kind == model.Witness:
		case p.Kind.Liveness() && opt.Safety: // skipped
		default:
			return fmt.Errorf("partial-order reduction preserves invariant, step, end and witness properties only, not %s (kind %s): add --safety to leave liveness unchecked, or run without --por", p.Name, p.Kind)
		}
	}
	return nil
}
