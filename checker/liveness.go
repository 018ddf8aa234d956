package checker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
)

// The liveness phase of a run: after the breadth-first search, the liveness
// properties are decided on the whole state graph (package liveness, whose
// doc says what is checked and how), under the run's limits.

// LivenessStats describes the graph a liveness check built.
type LivenessStats struct {
	// Method is what decided liveness: ByMeasure (the spec's termination
	// measure held on every transition; no graph was built),
	// ByMeasureReduced (the same on the transitions a reduced run keeps)
	// or ByGraph.
	Method string
	// Marked says, with a measure, that the marks were computed (the marks
	// phase, package termination): a terminal state left some goal unmet.
	Marked      bool
	Fairness    model.Fairness
	States      int64
	Transitions int64
	// Cycles is the number of strongly connected components of the whole
	// graph that contain a cycle, and LargestCycle the number of states in
	// the largest; 0 means every run is finite.
	// Both are counted only when the graph was built whole and the check
	// was not stopped first: then Complete is set.
	Cycles, LargestCycle int64
	Complete             bool
	// Bytes is the most memory the graph held at once, with the index
	// during its build and the working arrays of its analyses
	// (liveness.Graph.PeakBytes); DiskBytes the size of its edges' files
	// when they went to disk (Spilled), else 0.
	Bytes     int64
	DiskBytes int64
	Spilled   bool
	// Workers is the number of the graph's analyses that ran side by
	// side (analysisWorkers), and ParallelBytes a bound on the working
	// arrays the others held beside the largest one's, which Bytes
	// counts: the graph's own figure stays what one worker needs.
	Workers       int
	ParallelBytes int64
	// Elapsed is the time the liveness check took, after the exploration
	// that Result.SafetyElapsed measures.
	Elapsed time.Duration
	// Reason says why the check is incomplete, the graph's build or the
	// search stopped by a limit; "" when it is whole.
	Reason string
	// Rebuilt says, for a graph, why it was built by exploring the model
	// a second time after the search; "" when the search recorded it.
	Rebuilt string
}

// BytesPerTransition is the graph's memory per transition, 0 without one.
func (l *LivenessStats) BytesPerTransition() float64 {
	if l.Transitions == 0 {
		return 0
	}
	return float64(l.Bytes) / float64(l.Transitions)
}

// checkLiveness gives the liveness properties of sys their verdicts in res,
// which the breadth-first search has filled, and settles the overall verdict.
// The graph is the one rec recorded during the search, unless rebuilt says
// why it is built here (liveness.Build) instead.
// Unless opt.Continue is set, it checks nothing once a safety property has
// failed, and stops at the first liveness property that fails. The run's
// limits hold here as in the exploration (phaseGuard): a liveness phase
// they stop leaves the properties it has not decided incomplete. The
// graph, its components and the lassos are package liveness's.
func checkLiveness[S any](ctx context.Context, sys *model.System[S], opt Options, res *Result, start time.Time, rec *liveness.Recorder[S], rebuilt string) {
	props, at := livenessProps(sys)
	if len(props) == 0 || res.Err != nil || len(res.Props) != len(sys.Props) {
		return
	}
	// An error is never a verdict: the run is incomplete. A fault of the
	// machine's disks (diskio.Environmental) is no bug of mc's: as in the
	// search (stopOnEnvironment), the run stops incomplete for that reason,
	// its liveness properties undecided, and what it found stays reported.
	abort := func(err error) {
		if diskio.Environmental(err) {
			for _, i := range at {
				if res.Props[i].Verdict != Fail {
					res.Props[i].Verdict, res.Props[i].Trace = Incomplete, nil
				}
			}
			if res.Reason == "" {
				res.Reason = "liveness: I/O error: " + err.Error()
			}
			settle(res)
			return
		}
		res.Err, res.Verdict = err, Incomplete
	}
	for _, p := range props {
		if (p.State == nil) != (p.Kind == model.Eventually && p.Terminal) || (p.Kind == model.LeadsTo) != (p.From != nil) {
			abort(fmt.Errorf("spec %s: liveness property %s is malformed", sys.Spec, p.Name))
			return
		}
	}
	if res.DepthLimited {
		for _, i := range at {
			res.Props[i].Verdict = NotChecked
		}
		return
	}
	if res.Verdict == Fail && !opt.Continue {
		for _, i := range at {
			res.Props[i].Verdict = NotChecked
		}
		res.StoppedAtViolation = true
		return
	}
	cls, err := liveness.NewClasses(sys, opt.Fair)
	if err != nil {
		abort(err)
		return
	}
	began := time.Now()
	memLimit := memoryLimit(opt)
	if memLimit > 0 {
		// The search's structures are garbage now: hand them back to
		// the system, so that the limit measures what this phase holds.
		debug.FreeOSMemory()
	}
	guard := newPhaseGuard(ctx, PhaseLiveness, opt, start, memLimit)
	spill, cleanup := graphSpill(sys.Spec, opt, memLimit)
	defer func() {
		if err := cleanup(); err != nil && res.Err == nil {
			abort(err)
		}
	}()
	var g *liveness.Graph
	if rebuilt == "" {
		g, err = rec.Graph(guard)
	} else {
		rec.Drop(rebuilt)
		g, err = liveness.Build(sys, props, liveness.Limits{MaxStates: opt.MaxStates, Exact: opt.Exact, Spill: spill, Workers: workersOf(opt)}, guard, liveness.SearchBytesPerState, nil)
	}
	if err != nil {
		abort(err)
		return
	}
	defer g.Free()
	st := &LivenessStats{Method: ByGraph, Fairness: opt.Fair, States: int64(g.States()), Transitions: int64(g.Transitions()), Rebuilt: rebuilt, Reason: g.Stop()}
	res.Liveness = st
	halt := guard.Exceeded(0)
	if st.Reason == "" {
		st.Reason = halt
	}
	workers := analysisWorkers(opt, g.States(), memLimit)
	out := analyse(g, cls, props, opt, guard, st.Reason == "", halt != "", workers)
	if out.counted {
		st.Cycles, st.LargestCycle = out.cycles, out.largest
		st.Reason = out.cyclesHalt
		halt = st.Reason
		st.Complete = st.Reason == ""
	}
	if err := settleLassos(sys, g, cls, props, at, opt, out.lassos, halt != "", res); err != nil {
		abort(err)
		return
	}
	st.Bytes, st.DiskBytes, st.Spilled = g.PeakBytes(), g.DiskBytes(), g.Spilled()
	st.ParallelBytes, st.Workers = g.ParallelBytes(workers), workers
	st.Elapsed = time.Since(began)
	if res.Reason == "" && st.Reason != "" {
		res.Reason = "liveness: " + st.Reason
	}
	settle(res)
}

// unrecorded says why the search under opt does not record the state
// graph for its liveness phase (liveness.Recorder), "" when it does, so
// that the run explores once: the search must number every edge as it
// goes. A termination measure decides liveness without a graph, and the
// graph is built only if the measure fails; the disk store defers its
// lookups to the level's end; a reduced search keeps only the ample sets;
// a resumed search has not seen the states before its checkpoint; a
// search cut at a depth leaves the last level unexpanded. Their graphs are
// built after the search, if needed, and the run says why (Rebuilt).
func unrecorded(opt Options, measured bool) string {
	switch {
	case measured:
		return "the termination measure does not decrease on every transition"
	case opt.Disk != "":
		return "--store disk looks the states up at the end of each level"
	case opt.Reduce:
		return "--por: the reduced search keeps only the ample sets' transitions"
	case opt.Resume:
		return "--resume: the search did not see the states before its checkpoint"
	case opt.MaxDepth > 0:
		return "--max-depth: the search does not expand the states at the bound"
	}
	return ""
}

// livenessProps lists the liveness properties of sys, in order, and where
// each is in sys.Props.
func livenessProps[S any](sys *model.System[S]) (props []*model.Property[S], at []int) {
	for i := range sys.Props {
		if sys.Props[i].Kind.Liveness() {
			props = append(props, &sys.Props[i])
			at = append(at, i)
		}
	}
	return props, at
}

// graphTight reports, for a search that records the graph, whether the
// memory in use leaves less than the liveness analyses need for a graph of
// states states (liveness.SearchBytesPerState each) under the run's memory
// limit, asking at most every memCheckEvery; nil without a limit. The
// recorder then lets its graph go, to be built after the search.
func (e *bfs[S]) graphTight() func(states int64) bool {
	if e.mem.limit == 0 {
		return nil
	}
	var next time.Time
	return func(states int64) bool {
		if time.Now().Before(next) {
			return false
		}
		next = time.Now().Add(memCheckEvery)
		return memoryInUse()+states*liveness.SearchBytesPerState > e.mem.limit
	}
}

// analysisWorkers is the number of the graph's analyses that run side by
// side: opt.Workers (one per CPU if 0), but only as many as the memory
// limit leaves room for, each holding up to liveness.SearchBytesPerState
// per state of its own.
func analysisWorkers(opt Options, states int, memLimit int64) int {
	w := workersOf(opt)
	if memLimit > 0 {
		room := (memLimit - memoryInUse()) / max(1, int64(states)*liveness.SearchBytesPerState)
		w = int(min(int64(w), room))
	}
	return max(1, w)
}

// workersOf is opt.Workers, one per CPU if 0.
func workersOf(opt Options) int {
	if opt.Workers <= 0 {
		return runtime.NumCPU()
	}
	return opt.Workers
}

// analyses is what the analyses of the graph found: the cycles, if they
// were counted (cyclesHalt says why that count stopped, "" if it did
// not), and each property's search.
type analyses struct {
	counted         bool
	cycles, largest int64
	cyclesHalt      string
	lassos          []lassoSearch
}

// lassoSearch is one property's search: the lasso it found, if any, and
// whether the guard stopped it (the result is then void). A search not
// run (after a failure, or once halted) has ran unset.
type lassoSearch struct {
	lasso       *liveness.Lasso
	ran, halted bool
}

// analyse counts the graph's cycles (when count is set) and searches a
// lasso for every property, on workers goroutines (liveness.Parallel),
// all over the same read-only graph. Nothing is searched when halted.
// Unless opt.Continue, a property after one that has failed is not
// searched: it will not be checked (settleLassos). Which searches ran to
// their end can depend on the workers only when a limit stops them.
func analyse[S any](g *liveness.Graph, cls *liveness.Classes, props []*model.Property[S], opt Options, guard *phaseGuard, count, halted bool, workers int) analyses {
	out := analyses{counted: count, lassos: make([]lassoSearch, len(props))}
	if halted {
		return out
	}
	var reporting sync.Mutex
	var firstFail atomic.Int64
	firstFail.Store(int64(len(props)))
	liveness.Parallel(workers, len(props)+1, func(job int) {
		if job == 0 {
			if count {
				out.cycles, out.largest = liveness.CountCycles(g)
				out.cyclesHalt = g.Halted()
			}
			return
		}
		j := job - 1
		if !opt.Continue && int64(j) > firstFail.Load() {
			return
		}
		r := &out.lassos[j]
		r.ran = true
		if g.Check() {
			r.halted = true
			return
		}
		reporting.Lock()
		guard.report(Progress{States: int64(g.States()), Transitions: int64(g.Transitions()), Depth: g.Depth(), MemoryBytes: g.Bytes()})
		reporting.Unlock()
		r.lasso = liveness.FindLasso(g, cls, j, props[j].Kind == model.Eventually)
		r.halted = g.Halted() != ""
		for r.lasso != nil && !r.halted {
			f := firstFail.Load()
			if int64(j) >= f || firstFail.CompareAndSwap(f, int64(j)) {
				break
			}
		}
	})
	return out
}

// settleLassos gives each liveness property props[j] (res.Props[at[j]]) its
// verdict from its search found[j], in the order of the properties, as a
// search one property after another would: Fail with a lasso found in g,
// even an incomplete g (its expanded states' transitions are all known, so
// a lasso among them is real); Pass when g is whole and has none;
// Incomplete when g is not whole, or when the guard stopped this search or
// an earlier one (halted: before the first), which res.Liveness.Reason
// then says unless the graph's build stopped first; and, unless
// opt.Continue, NotChecked after the first failure.
func settleLassos[S any](sys *model.System[S], g *liveness.Graph, cls *liveness.Classes, props []*model.Property[S], at []int, opt Options, found []lassoSearch, halted bool, res *Result) error {
	st := res.Liveness
	failed := false
	for j, p := range props {
		pr := &res.Props[at[j]]
		pr.Trace = nil
		if failed && !opt.Continue {
			pr.Verdict, res.StoppedAtViolation = NotChecked, true
			continue
		}
		if !halted && (!found[j].ran || found[j].halted) {
			// The search stopped halfway: no verdict, here or after.
			halted = true
			if st.Reason == "" {
				st.Reason = g.Halted()
			}
		}
		if halted {
			pr.Verdict = Incomplete
			continue
		}
		switch l := found[j].lasso; {
		case l != nil:
			tr, err := renderLasso(sys, cls, p, l)
			if err != nil {
				return err
			}
			pr.Verdict, pr.Trace, failed = Fail, tr, true
		case g.Stop() != "":
			pr.Verdict = Incomplete
		default:
			pr.Verdict = Pass
		}
	}
	return nil
}

// settle recomputes the overall verdict from the properties' verdicts.
func settle(res *Result) {
	fail, incomplete := false, res.Reason != ""
	for _, p := range res.Props {
		fail = fail || p.Verdict == Fail
		incomplete = incomplete || p.Verdict == Incomplete
	}
	switch {
	case fail:
		res.Verdict = Fail
	case incomplete:
		res.Verdict = Incomplete
	default:
		res.Verdict = Pass
	}
}

// renderLasso turns a lasso into a Trace a person reads, after replaying it
// through the spec and checking, independently of the graph it was found
// in, that it really is a fair counterexample to p (liveness.Verify).
func renderLasso[S any](sys *model.System[S], cls *liveness.Classes, p *model.Property[S], l *liveness.Lasso) (*Trace, error) {
	actions := append(append([]model.Action(nil), l.Stem...), l.Loop...)
	tr, err := render(sys, l.Init, actions, l.EntryFP)
	if err != nil {
		return nil, err
	}
	loopStart := len(l.Stem)
	from, err := liveness.Verify(sys, cls, p, l.Init, actions, loopStart, l.Terminating)
	if err != nil {
		return nil, fmt.Errorf("internal error: the counterexample to %s does not check out on replay: %v", p.Name, err)
	}
	tr.Property, tr.Kind = p.Name, p.Kind.String()
	if l.Terminating {
		tr.Deadlock = true
	} else {
		tr.LoopStart = &loopStart
	}
	if p.Kind == model.LeadsTo {
		tr.From = &from
	}
	return tr, nil
}

func (t target[S]) VerifyLasso(prop string, fair model.Fairness, init int, actions []model.Action, loopStart int) error {
	var p *model.Property[S]
	for i := range t.sys.Props {
		if t.sys.Props[i].Name == prop && t.sys.Props[i].Kind.Liveness() {
			p = &t.sys.Props[i]
		}
	}
	if p == nil {
		return fmt.Errorf("spec %s has no liveness property %s", t.sys.Spec, prop)
	}
	if init < 0 || init >= len(t.sys.Init) {
		return fmt.Errorf("the run starts from initial state %d, but the spec has %d", init, len(t.sys.Init))
	}
	cls, err := liveness.NewClasses(t.sys, fair)
	if err != nil {
		return err
	}
	_, err = liveness.Verify(t.sys, cls, p, init, actions, max(loopStart, 0), loopStart < 0)
	return err
}

// graphSpill says when the liveness graph's edges go to disk (liveness.Spill):
// always with the disk store (opt.Disk), else when memory runs short under
// memLimit. Their files go in a working directory of their own (workdir.go),
// made when first needed under opt.Disk, or the system's temporary
// directory; cleanup removes it, once the graph is freed.
func graphSpill(spec string, opt Options, memLimit int64) (*liveness.Spill, func() error) {
	var dir *workDir
	parent := opt.Disk
	if parent == "" {
		parent = os.TempDir()
	}
	spill := &liveness.Spill{
		Always: opt.Disk != "",
		Tight: func(reserve int64) bool {
			return memLimit > 0 && memoryInUse()+reserve > memLimit
		},
		Dir: func() (string, error) {
			if dir == nil {
				w, err := createWorkDir(parent, spec+"-graph")
				if err != nil {
					return "", err
				}
				dir = w
			}
			return dir.path, nil
		},
	}
	if memLimit == 0 && opt.Disk == "" {
		spill = nil
	}
	cleanup := func() error {
		if dir == nil {
			return nil
		}
		err := errors.Join(dir.unlock(), os.Remove(dir.path))
		if err != nil {
			return fmt.Errorf("removing the liveness graph's directory %s: %w", dir.path, err)
		}
		return nil
	}
	return spill, cleanup
}
