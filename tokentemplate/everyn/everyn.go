// Package everyn decides a token-ring template's properties for every ring
// size (mc check --every-n): it checks the sizes 2 up to the template's
// cutoff (tokentemplate.CutoffOf) and, when all pass, the theorem behind
// the cutoff carries the verdict to every n ≥ 2 (docs/every-n.md).
package everyn

import (
	"context"
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/tokentemplate"
)

// Size is the check at one ring size.
type Size struct {
	N           int             `json:"n"`
	Verdict     checker.Verdict `json:"verdict"`
	States      int64           `json:"states"`
	Transitions int64           `json:"transitions"`
}

// Result is the verdict for every ring size.
type Result struct {
	Cutoff tokentemplate.Cutoff
	// Sizes are the sizes checked, from 2 up, as far as the check went,
	// and Runs their runs (for reports that give every property's verdict).
	Sizes []Size
	Runs  []checker.Result
	// Last is the system of the last size checked, the run Runs ends
	// with: the one a trace file of the check records.
	Last    checker.Target
	Verdict checker.Verdict
	// Failed is the run at the size where a property failed (the last of
	// Sizes), and Property the property whose counterexample counts; nil
	// and empty unless Verdict is Fail.
	Failed   *checker.Result
	Property string
	// Reason says why the verdict is Incomplete.
	Reason string
}

// Check checks t at n = 2..cutoff with opt, each size built from p with N
// set. Liveness is checked without fairness (mc's --fair none): a pass on
// every infinite run is a pass on the runs the theorems quantify over,
// those on which every process receives the token infinitely often; a
// counterexample counts only if its loop passes the token round the whole
// ring (a size whose only counterexamples do not is left undecided, the
// larger sizes still checked for one that is). The error is a refusal:
// the hypothesis that fails.
//
// build, if not nil, is the spec's own Build: each size is checked on it
// too, and a spec whose Build does not give the template's counts and
// verdicts is refused, since the theorem covers the template only (a
// process that reads its index, or a token that chooses its way, cannot
// be written in the template, but a Build can add them).
func Check(ctx context.Context, t *tokentemplate.Template, build func(model.Params) (checker.Target, error), p model.Params, opt checker.Options) (Result, error) {
	cut, err := tokentemplate.CutoffOf(t)
	if err != nil {
		return Result{}, err
	}
	res := Result{Cutoff: cut, Verdict: checker.Pass}
	opt.Fair, opt.Safety, opt.Reduce, opt.Continue = model.FairNone, false, false, true
	for n := 2; n <= cut.Size; n++ {
		p.N, p.IDs = n, ring.DescendingIDs(n) // as mc check gives a spec without ids
		sys, err := t.System(p)
		if err != nil {
			return Result{}, err
		}
		target := checker.Of(sys)
		r := target.Check(ctx, opt)
		if r.Err != nil {
			return res, r.Err
		}
		if build != nil {
			refusal, bug := sameAsTemplate(ctx, build, p, opt, &r)
			if bug != nil {
				return res, bug
			}
			if refusal != nil {
				return Result{}, refusal
			}
		}
		res.Sizes = append(res.Sizes, Size{N: n, Verdict: r.Verdict, States: r.States, Transitions: r.Transitions})
		res.Runs, res.Last = append(res.Runs, r), target
		if r.Verdict == checker.Incomplete {
			res.Verdict, res.Reason = checker.Incomplete, fmt.Sprintf("n = %d: %s", n, r.Reason)
			return res, nil
		}
		for i := range r.Props {
			f := &r.Props[i]
			switch {
			case f.Verdict != checker.Fail:
			case !f.Kind.Liveness() || TokenFair(t, n, f.Trace):
				res.Verdict, res.Failed, res.Property, res.Reason = checker.Fail, &r, f.Name, ""
				return res, nil
			case res.Reason == "":
				res.Verdict = checker.Incomplete
				res.Reason = fmt.Sprintf("n = %d: %s fails only on a run whose loop does not pass the token round the ring; the theorems count only runs that do, and mc has no search for those (docs/every-n.md)", n, f.Name)
			}
		}
	}
	return res, nil
}

// sameAsTemplate refuses a spec whose Build, at p, does not give the
// template's run r: other counts, or another verdict for a property.
// bug is mc's own failure in the spec's run.
func sameAsTemplate(ctx context.Context, build func(model.Params) (checker.Target, error), p model.Params, opt checker.Options, r *checker.Result) (refusal, bug error) {
	tg, err := build(p)
	if err != nil {
		return err, nil
	}
	b := tg.Check(ctx, opt)
	if b.Err != nil {
		return nil, b.Err
	}
	same := b.States == r.States && b.Transitions == r.Transitions && len(b.Props) == len(r.Props)
	for i := 0; same && i < len(b.Props); i++ {
		same = b.Props[i].Name == r.Props[i].Name && b.Props[i].Verdict == r.Props[i].Verdict
	}
	if !same {
		return fmt.Errorf("the spec's systems are not its template's (n = %d: %d states, %d transitions, %s; the template's %d, %d, %s): the theorem covers the template only, and what the spec adds to it (a process reading its index, a token choosing its way) no theorem does",
			p.N, b.States, b.Transitions, b.Verdict, r.States, r.Transitions, r.Verdict), nil
	}
	return nil, nil
}

// TokenFair reports whether lasso tr of a ring of n processes of t is a
// run of the theorems: its loop makes every process send the token, so
// that every process receives it infinitely often.
func TokenFair(t *tokentemplate.Template, n int, tr *checker.Trace) bool {
	if tr == nil || tr.LoopStart == nil {
		return false
	}
	sent := make([]bool, n)
	count := 0
	for _, st := range tr.Steps[*tr.LoopStart:] {
		if t.Actions[st.Action.Rule].Sends && !sent[st.Action.Proc] {
			sent[st.Action.Proc] = true
			count++
		}
	}
	return count == n
}
