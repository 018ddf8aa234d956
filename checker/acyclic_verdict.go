package checker

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/ringcheck/mc/checker/liveness"
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
	if e.acyc == nil || e.acyc.wrong == nil {
		return
	}
	w := e.acyc.wrong
	init, actions, err := e.path(w.at.id, res.Depth)
	if err != nil {
		res.Err = err
		return
	}
	tr, err := render(e.sys, init, append(actions, *w.at.extra), w.at.fp)
	if err != nil {
		res.Err = err
		return
	}
	tr.Property, tr.Kind = "termination-measure", "measure"
	res.WrongMeasure = &WrongMeasure{Trace: tr, Before: w.before, After: w.after}
}

// decideByMeasure gives the liveness properties of sys their verdicts after
// a complete breadth-first search under a termination measure that held on
// every transition (acyclic.go), and settles the overall verdict. A
// property whose goal every reachable terminal state meets holds; if a
// terminal state leaves some goal unmet, the marks phase (marksPhase)
// decides every property. As on the graph, a run whose safety properties
// failed checks no liveness unless opt.Continue is set, and the properties
// are decided in order up to the first that fails. start is when the run
// began, for its timeout.
func decideByMeasure[S any](ctx context.Context, sys *model.System[S], a *acyclic[S], opt Options, res *Result, start time.Time) {
	if !a.withMarks && a.pending != 0 && (res.Verdict != Fail || opt.Continue) {
		marksPhase(ctx, sys, opt, res, start)
		return
	}
	giveMarkedVerdicts(ctx, sys, a, opt, res)
}

// giveMarkedVerdicts gives the liveness properties of sys their verdicts
// from a.pending, the properties a terminal state leaves pending (after
// the marks phase) or whose goal no terminal state leaves unmet (without
// one), and settles the overall verdict.
func giveMarkedVerdicts[S any](ctx context.Context, sys *model.System[S], a *acyclic[S], opt Options, res *Result) {
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
		Complete: true, Marked: a.withMarks, Bytes: a.marksBytes}
	if a.marks != nil {
		a.marks.free() // a.pending holds what the marks decided
	}
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
			violated = a.pending&(1<<bit) != 0
			bit++
		}
		switch {
		case (failed || res.Verdict == Fail) && !opt.Continue:
			pr.Verdict, res.StoppedAtViolation = NotChecked, true
		case violated:
			tr, err := terminalCounterexample(ctx, sys, cls, p)
			if err != nil {
				res.Err, res.Verdict = err, Incomplete
				return
			}
			pr.Verdict, pr.Trace, failed = Fail, tr, true
		default:
			pr.Verdict = Pass
		}
	}
	st.Elapsed = time.Since(began)
	settle(res)
}

// marksPhase decides the liveness properties of res, whose search found a
// terminal state that leaves some goal unmet, by the search again, this
// time computing the marks (acyclic.go): a liveness phase, under the run's
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
		var a *acyclic[S] // nil if the search was refused before it began
		if e != nil {
			a = e.acyc
		}
		switch {
		case a.active() && r.Err == nil && r.Reason == "" && !r.StoppedAtViolation:
			giveMarkedVerdicts(ctx, e.sys, a, o, &r)
		case a != nil && a.marks != nil:
			a.marks.free() // stopped: the liveness verdicts are incomplete
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

// terminalCounterexample finds a shortest run that violates p by ending in
// a terminal state with p pending, the counterexample the graph method
// gives on an acyclic graph, by its breadth-first search over (state,
// phase) (liveness.FindLasso): phase 0 before P held, phase 1 once P ∧ ¬Q
// held ("eventually Q" starts in phase 1), following only ¬Q states. It
// stores only the states it visits, and runs only for a property the marks
// showed to fail.
func terminalCounterexample[S any](ctx context.Context, sys *model.System[S], cls *liveness.Classes, p *model.Property[S]) (*Trace, error) {
	type node struct {
		enc    []byte
		pred   int // -1 for a root
		action model.Action
		step   bool // reached from pred by action, not by P's holding
		phase  uint8
	}
	type key struct {
		fp    uint64
		phase uint8
	}
	var nodes []node
	seen := map[key]bool{}
	discover := func(enc []byte, s *S, pred int, a model.Action, step bool, phase uint8) {
		fp := model.Fingerprint(enc)
		if !seen[key{fp, phase}] {
			seen[key{fp, phase}] = true
			nodes = append(nodes, node{enc: enc, pred: pred, action: a, step: step, phase: phase})
		}
		if phase == 0 && p.Kind == model.LeadsTo && p.From(s) && !p.State(s) && !seen[key{fp, 1}] {
			seen[key{fp, 1}] = true
			nodes = append(nodes, node{enc: enc, pred: len(nodes) - 1, phase: 1})
		}
	}
	for i := range sys.Init {
		s := &sys.Init[i]
		enc := sys.Encode(nil, s)
		switch {
		case p.Kind == model.LeadsTo:
			discover(enc, s, -1-i, model.Action{}, false, 0)
		case !p.State(s):
			discover(enc, s, -1-i, model.Action{}, false, 1)
		}
	}
	var cur, next S
	for head := 0; head < len(nodes); head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted while finding the counterexample to %s", p.Name)
		}
		n := nodes[head]
		if err := sys.Decode(n.enc, &cur); err != nil {
			return nil, fmt.Errorf("internal error: a state does not decode: %v", err)
		}
		enabled := false
		for a := range sys.Steps(&cur, &next) {
			enabled = true
			if n.phase == 1 && p.State(&next) {
				continue
			}
			discover(sys.Encode(nil, &next), &next, head, a, true, n.phase)
		}
		if n.phase == 1 && !enabled {
			var stem []model.Action
			x := head
			for nodes[x].pred >= 0 {
				if nodes[x].step {
					stem = append(stem, nodes[x].action)
				}
				x = nodes[x].pred
			}
			for i, j := 0, len(stem)-1; i < j; i, j = i+1, j-1 {
				stem[i], stem[j] = stem[j], stem[i]
			}
			l := &liveness.Lasso{Init: -1 - nodes[x].pred, Stem: stem, EntryFP: model.Fingerprint(n.enc), Terminating: true}
			return renderLasso(sys, cls, p, l)
		}
	}
	return nil, fmt.Errorf("internal error: the marks say %s fails, but no run ends in a terminal state with it pending", p.Name)
}
