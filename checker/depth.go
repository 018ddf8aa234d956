package checker

import "fmt"

// A depth-bounded run (Options.MaxDepth D) is an exhaustive search of the
// states at most D steps from an initial state: every state of levels 0..D
// is checked, and level D is expanded too, so that its step and end
// properties are checked and it is known whether deeper states exist; the
// new states it finds are not admitted. If there are none, the search had
// finished within D, and the run is the unbounded one, liveness included.
// If there are, the run is incomplete ("no violation up to depth D"), and
// liveness, which is a property of infinite runs, is not checked on the cut
// graph. Partial-order reduction is refused with a bound (CanBound): the
// reduced graph's levels are not the full graph's, so a bounded reduced
// search would not cover every state within D steps.

// cutAtMaxDepth ends a run whose level Options.MaxDepth had successors
// deeper than the bound, at the end of that level: unless a violation
// stops it there anyway, it is incomplete.
func (e *bfs[S]) cutAtMaxDepth(res *Result) {
	if e.stopAtViolation() {
		res.StoppedAtViolation = true
		return
	}
	res.DepthLimited = true
	e.halt(fmt.Sprintf("depth limit %d reached: deeper states were not explored", e.opt.MaxDepth))
}

// CanBound refuses a depth bound where it would be unsound: with
// partial-order reduction, whose levels are not the full graph's.
func CanBound(opt Options) error {
	switch {
	case opt.MaxDepth < 0:
		return fmt.Errorf("--max-depth: want a depth of at least 1, not %d", opt.MaxDepth)
	case opt.MaxDepth > 0 && opt.Reduce:
		return fmt.Errorf("--max-depth cannot be combined with --por: a reduced search's levels are not the full graph's, so it would not cover every state within the bound")
	}
	return nil
}
