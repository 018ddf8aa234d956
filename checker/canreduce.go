package checker

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// CanReduce refuses partial-order reduction where it would be unsound or is
// not supported: with the disk store, whose lookups during a level see only
// the two most recent levels, so the cycle proviso (C3 in package por's doc)
// cannot be checked; and with properties of a kind other than those below.
// Checkpoints are fine: since format 7 they save the indices of the
// in-memory visited set, which the proviso reads, and resuming restores
// them, so a resumed run makes the choices an uninterrupted one makes.
//
// Invariant, step, end and witness properties are preserved by package
// por's conditions. Liveness properties (eventually, leads-to) are decided
// under reduction only by the spec's termination measure (measured: the
// system declares one; package termination): if it decreases on every transition of
// the reduced graph, every run of the full system is finite, and the
// reduced graph keeps each finite run's sequence of visible values (package
// por's doc, "Liveness"). Without a measure the reduced graph's cycles
// would have to decide the property, and mc checks liveness under weak
// fairness, which an ample set can break by postponing a continuously
// enabled process for ever; so that is refused, as is --exact, whose runs
// leave liveness to the graph. --safety, which leaves liveness unchecked,
// lifts both refusals.
func CanReduce(opt Options, props []PropInfo, measured bool) error {
	if opt.Disk != "" {
		return fmt.Errorf("partial-order reduction needs to know where every stored state was stored, for its cycle proviso, and the disk store cannot say; use --store memory (or --exact) with --por")
	}
	for _, p := range props {
		switch {
		case p.Kind == model.Invariant, p.Kind == model.Step, p.Kind == model.End, p.Kind == model.Witness:
		case p.Kind.Liveness() && opt.Safety: // skipped
		case p.Kind.Liveness() && !measured:
			return fmt.Errorf("partial-order reduction decides liveness (%s) only for a spec with a termination measure, whose runs are all finite; on a cycle an ample set may postpone a fair process for ever, and this spec declares no measure: add --safety to leave liveness unchecked, or run without --por", p.Name)
		case p.Kind.Liveness() && opt.Exact:
			return fmt.Errorf("partial-order reduction decides liveness (%s) by the termination measure's marks, which --exact does not use: add --safety to leave liveness unchecked, or run without --exact or without --por", p.Name)
		case p.Kind.Liveness():
		default:
			return fmt.Errorf("partial-order reduction preserves invariant, step, end, witness, eventually and leads-to properties only, not %s (kind %s): add --safety to leave liveness unchecked, or run without --por", p.Name, p.Kind)
		}
	}
	return nil
}
