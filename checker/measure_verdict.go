package checker

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/checker/termination"
	"github.com/ringcheck/mc/model"
)

// How liveness was decided (LivenessStats.Method): by the termination
// measure's marks on the full or on the reduced graph (--por; package por's
// doc, "Liveness"), or on the state graph, which holds every interleaving.
const (
	ByMeasure        = "termination measure"
	ByMeasureReduced = "termination measure, reduced graph"
	ByGraph          = "state graph"
)

// WrongMeasure is a transition that does not decrease a spec's termination
// measure: Trace runs to the successor, its last step the transition, and
// Before and After are the measure's values at its two ends.
type WrongMeasure struct {
	Trace         *Trace
	Before, After []int
}

// reportWrongMeasure gives res the transition that broke the measure, if
// one did.
func (e *bfs[S]) reportWrongMeasure(res *Result) {
	if e.measure == nil || e.measure.WrongTransition() == nil {
		return
	}
	w := e.measure.WrongTransition()
	init, actions, err := e.path(w.Parent, res.Depth)
	if err != nil {
		res.Err = err
		return
	}
	tr, err := render(e.sys, init, append(actions, w.Action), w.FP)
	if err != nil {
		res.Err = err
		return
	}
	tr.Property, tr.Kind = "termination-measure", "measure"
	res.WrongMeasure = &WrongMeasure{Trace: tr, Before: w.Before, After: w.After}
}

// decideByMeasure gives the liveness properties of sys their verdicts after
// a complete breadth-first search under a termination measure that held on
// every transition (package termination), and settles the overall verdict. A
// property whose goal every reachable terminal state meets holds; if a
// terminal state leaves some goal unmet, the marks phase (marksPhase)
// decides every property. As on the graph, a run whose safety properties
// failed checks no liveness unless opt.Continue is set, and the properties
// are decided in order up to the first that fails. start is when the run
// began, for its timeout.
func decideByMeasure[S any](ctx context.Context, sys *model.System[S], a *termination.Measure[S], opt Options, res *Result, start time.Time) {
	if !a.Marked() && a.Pending() != 0 && (res.Verdict != Fail || opt.Continue) {
		marksPhase(ctx, sys, opt, res, start)
		return
	}
	giveMarkedVerdicts(ctx, sys, a, opt, res)
}

// giveMarkedVerdicts gives the liveness properties of sys their verdicts
// from a.Pending(), the properties a terminal state leaves pending (after
// the marks phase) or whose goal no terminal state leaves unmet (without
// one), and settles the overall verdict.
func giveMarkedVerdicts[S any](ctx context.Context, sys *model.System[S], a *termination.Measure[S], opt Options, res *Result) {
	began := time.Now()
	cls, err := liveness.NewClasses(sys, opt.Fair)
	if err != nil {
		res.Err, res.Verdict = err, Incomplete
		return
	}
	method := ByMeasure
	if res.Reduced {
		method = ByMeasureReduced
	}
	st := &LivenessStats{Method: method, Fairness: opt.Fair, States: res.States, Transitions: res.Transitions,
		Complete: true, Marked: a.Marked(), Bytes: a.MarksBytes()}
	a.FreeMarks() // a.Pending() holds what the marks decided
	res.Liveness = st
	failed, bit := false, 0
	for i := range sys.Props {
		p := &sys.Props[i]
		if !p.Kind.Liveness() {
			continue
		}
		pr := &res.Props[i]
		violated := false
		if !p.Terminal {
			violated = a.Pending()&(1<<bit) != 0
			bit++
		}
		switch {
		case (failed || res.Verdict == Fail) && !opt.Continue:
			pr.Verdict, res.StoppedAtViolation = NotChecked, true
		case violated:
			l, err := termination.Counterexample(ctx, sys, p)
			if err == nil {
				pr.Trace, err = renderLasso(sys, cls, p, l)
			}
			if err != nil {
				res.Err, res.Verdict = err, Incomplete
				return
			}
			pr.Verdict, failed = Fail, true
		default:
			pr.Verdict = Pass
		}
	}
	st.Elapsed = time.Since(began)
	settle(res)
}

// marksPhase decides the liveness properties of res, whose search found a
// terminal state that leaves some goal unmet, by the search again, this
// time computing the marks (package termination): a liveness phase, under the run's
// limits and with its progress reported as such, which writes no
// checkpoint (a run resumed from the first search's redoes it, as the
// graph's phase is redone). It finds the same states and transitions as
// the first search, and its liveness verdicts, statistics and
// counterexamples become res's.
func marksPhase[S any](ctx context.Context, sys *model.System[S], opt Options, res *Result, start time.Time) {
	began := time.Now()
	o := opt
	o.Checkpoint, o.Resume = "", false
	if opt.Timeout > 0 {
		o.Timeout = opt.Timeout - time.Since(start)
	}
	if opt.Progress != nil {
		o.Progress = func(p Progress) {
			p.Phase = PhaseLiveness
			opt.Progress(p)
		}
	}
	if memoryLimit(opt) > 0 {
		debug.FreeOSMemory() // the first search's structures are garbage
	}
	var r Result
	if opt.Timeout > 0 && o.Timeout <= 0 {
		r.Reason = fmt.Sprintf("timeout after %s", opt.Timeout)
	} else {
		var e *bfs[S]
		r, e = search(ctx, sys, o, nil, true)
		var a *termination.Measure[S] // nil if the search was refused before it began
		if e != nil {
			a = e.measure
		}
		switch {
		case a.Active() && r.Err == nil && r.Reason == "" && !r.StoppedAtViolation:
			giveMarkedVerdicts(ctx, e.sys, a, o, &r)
		case a != nil:
			a.FreeMarks() // stopped: the liveness verdicts are incomplete
		}
	}
	switch {
	case r.Err != nil:
		res.Err, res.Verdict = r.Err, Incomplete
		return
	case r.Reason == "" && (r.States != res.States || r.Transitions != res.Transitions || r.Liveness == nil):
		res.Err, res.Verdict = fmt.Errorf("internal error: the marks phase found %d states and %d transitions, the search %d and %d", r.States, r.Transitions, res.States, res.Transitions), Incomplete
		return
	}
	res.Liveness = r.Liveness
	if r.Reason != "" { // stopped by a limit
		res.Liveness = &LivenessStats{Method: ByMeasure, Fairness: opt.Fair, Marked: true, Reason: r.Reason}
		if res.Reduced {
			res.Liveness.Method = ByMeasureReduced
		}
	}
	res.Liveness.Elapsed = time.Since(began)
	for i := range sys.Props {
		if !sys.Props[i].Kind.Liveness() {
			continue
		}
		if r.Reason != "" {
			res.Props[i].Verdict, res.Props[i].Trace = Incomplete, nil
		} else {
			res.Props[i].Verdict, res.Props[i].Trace = r.Props[i].Verdict, r.Props[i].Trace
		}
	}
	res.StoppedAtViolation = res.StoppedAtViolation || r.StoppedAtViolation
	if r.Reason != "" && res.Reason == "" {
		res.Reason = "liveness: " + r.Reason
	}
	settle(res)
}
