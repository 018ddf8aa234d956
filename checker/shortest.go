package checker

import "context"

// ShortestBound is the state limit of the unreduced re-run Shortest makes
// when the options set none: without reduction the graph can be far
// larger than the reduced one that found the failure.
const ShortestBound = 10_000_000

// Shortest re-runs a failure found under partial-order reduction, whose
// trace is a real run but need not be a shortest one (por's ample sets
// drop interleavings, so a breadth-first level of the reduced graph is not
// one of the full graph), without reduction, breadth-first, so that the
// failure it finds first has a shortest trace (mc check --shortest). It
// stops at opt.MaxStates, or ShortestBound, states. It returns nil when
// reduced is not a failure of a reduced run, which needs no re-run.
func Shortest(ctx context.Context, t Target, reduced *Result, opt Options) *Result {
	if !reduced.Reduced || reduced.Verdict != Fail || reduced.Failure().Vacuous {
		return nil // a vacuous pass that Options.FailVacuous failed has no counterexample to shorten
	}
	opt.Reduce = false
	opt.Checkpoint, opt.Resume = "", false // the checkpoint is the reduced run's
	if opt.MaxStates == 0 {
		opt.MaxStates = ShortestBound
	}
	res := t.Check(ctx, opt)
	return &res
}
