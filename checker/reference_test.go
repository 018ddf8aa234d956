package checker_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// The reference checker is a second, deliberately simple checker: it walks
// a system through its Stepper (which knows nothing of mc's search), keeps
// every full state in a Go map keyed by its encoding, and goes breadth-first
// with one goroutine: no fingerprints, no levels on disk, no checkpoints. mc
// must agree with it on every figure and safety verdict in every mode (modes
// below). Liveness properties (leads-to, eventually under fairness) are not
// checked by the reference yet: their verdicts are not compared.

// refResult is what the reference checker found.
type refResult struct {
	states, transitions, terminal int64
	depth                         int
	// levels has, per breadth-first level, its states, the transitions
	// from them and its terminal states.
	levels []refLevel
	// props has, per property, the verdict and the length of the shortest
	// trace deciding it (-1 when none exists).
	props []refProp
	// live has, per fairness assumption, the verdict of every property in
	// the system's order ("" for a safety property); nil when the graph
	// is too large for the reference's liveness check (refLivenessMax).
	live map[model.Fairness][]checker.Verdict
}

type refProp struct {
	name    string
	kind    model.Kind
	verdict checker.Verdict
	steps   int
}

type refLevel struct{ states, transitions, terminal int64 }

func reference(tg checker.Target) (refResult, error) {
	info := tg.Info()
	var res refResult
	first := make([]int, len(info.Props))
	for i := range first {
		first[i] = -1
	}
	decide := func(i, steps int) {
		if first[i] < 0 {
			first[i] = steps
		}
	}
	depth := map[checker.State]int{}
	var queue []checker.State
	g := newRefGraph()
	for _, s := range tg.Initial() {
		g.init = append(g.init, g.index(s))
		if _, ok := depth[s]; !ok {
			depth[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d := depth[s]
		res.depth = max(res.depth, d)
		if d == len(res.levels) {
			res.levels = append(res.levels, refLevel{})
		}
		lv := &res.levels[d]
		lv.states++
		snap, err := tg.Inspect(s)
		if err != nil {
			return res, err
		}
		from := g.index(s)
		g.goals[from] = snap.Goals
		for _, st := range snap.Props {
			i := slices.IndexFunc(info.Props, func(p checker.PropInfo) bool { return p.Name == st.Name })
			switch st.Kind {
			case model.Invariant, model.End:
				if st.Evaluated && !st.Holds {
					decide(i, d)
				}
			case model.Witness:
				if st.Holds {
					decide(i, d)
				}
			}
		}
		moves, err := tg.Moves(s)
		if err != nil {
			return res, err
		}
		res.transitions += int64(len(moves))
		lv.transitions += int64(len(moves))
		if len(moves) == 0 {
			res.terminal++
			lv.terminal++
		}
		for _, m := range moves {
			g.succ[from] = append(g.succ[from], refEdge{to: g.index(m.To), action: m.Action})
			for _, name := range m.Broken {
				decide(slices.IndexFunc(info.Props, func(p checker.PropInfo) bool { return p.Name == name }), d+1)
			}
			if _, ok := depth[m.To]; !ok {
				depth[m.To] = d + 1
				queue = append(queue, m.To)
			}
		}
	}
	res.states = int64(len(depth))
	res.live = g.liveness(info)
	for i, p := range info.Props {
		v := checker.Pass
		if p.Kind.Liveness() {
			v = "" // not checked: leads-to and eventually need fair cycles
		}
		if (first[i] >= 0) != (p.Kind == model.Witness) {
			v = checker.Fail
		}
		res.props = append(res.props, refProp{name: p.Name, kind: p.Kind, verdict: v, steps: first[i]})
	}
	return res, nil
}

// mismatch compares a complete run of mc, made with opt, with the reference
// and returns "" when they agree. Every trace mc returns is also replayed
// through the Stepper and must end where its property is decided. A reduced
// run (opt.Reduce, when the reduction applied) stores a subset of the
// states: it must reach the same terminal states and give the same
// verdicts, with traces that replay but need not be shortest. Liveness
// verdicts are compared when opt checks them and the reference could
// decide them (refLivenessMax).
//
// Without opt.Continue the run must stop at the first violation: where the
// reference's shortest violation is decided (firstViolation), with the
// figures of the levels up to there (mismatchStopped); a run that reaches
// the end first is compared as a complete one, with the liveness properties
// expected NotChecked after a safety failure or after the first liveness
// failure (wantLiveness).
func mismatch(tg checker.Target, ref refResult, r checker.Result, opt checker.Options) string {
	if r.Err != nil {
		return fmt.Sprintf("mc failed: %v", r.Err)
	}
	if b, ok := ref.firstViolation(); ok && !opt.Continue && b < len(ref.levels) {
		return mismatchStopped(tg, ref, r, b, opt.Safety)
	}
	if r.Verdict == checker.Incomplete {
		return fmt.Sprintf("mc incomplete: %s", r.Reason)
	}
	if r.Reduced {
		if r.States > ref.states || r.Terminal != ref.terminal {
			return fmt.Sprintf("mc reduced: states %d terminal %d; reference: %d %d", r.States, r.Terminal, ref.states, ref.terminal)
		}
	} else if r.States != ref.states || r.Transitions != ref.transitions || r.Terminal != ref.terminal || r.Depth != ref.depth {
		return fmt.Sprintf("mc: states %d transitions %d terminal %d depth %d; reference: %d %d %d %d",
			r.States, r.Transitions, r.Terminal, r.Depth, ref.states, ref.transitions, ref.terminal, ref.depth)
	}
	want, compared := checker.Pass, 0
	live := wantLiveness(ref, opt)
	for _, p := range r.Props {
		i := slices.IndexFunc(ref.props, func(rp refProp) bool { return rp.name == p.Name })
		if i < 0 {
			return fmt.Sprintf("mc reports property %s, which the system does not have", p.Name)
		}
		rp := ref.props[i]
		if p.Kind.Liveness() {
			if p.Verdict == checker.Fail {
				want = checker.Fail
			}
			if opt.Safety || live == nil {
				continue
			}
			if v := live[i]; p.Verdict != v {
				return fmt.Sprintf("property %s under fairness %s: mc %s, expected %s", p.Name, opt.Fair, p.Verdict, v)
			}
			continue
		}
		compared++
		if rp.verdict == checker.Fail {
			want = checker.Fail
		}
		if p.Verdict != rp.verdict {
			return fmt.Sprintf("property %s: mc %s, reference %s", p.Name, p.Verdict, rp.verdict)
		}
		if (p.Trace != nil) != (rp.steps >= 0) {
			return fmt.Sprintf("property %s: mc trace %v, reference decides it at %d steps", p.Name, p.Trace != nil, rp.steps)
		}
		if p.Trace == nil {
			continue
		}
		if !r.Reduced && len(p.Trace.Steps) != rp.steps {
			return fmt.Sprintf("property %s: mc's trace has %d steps, the shortest has %d", p.Name, len(p.Trace.Steps), rp.steps)
		}
		if why := replayDecides(tg, i, p); why != "" {
			return fmt.Sprintf("property %s: mc's trace %s", p.Name, why)
		}
	}
	for _, rp := range ref.props {
		if rp.verdict != "" {
			compared--
		}
	}
	if compared != 0 {
		return "mc does not report every safety property"
	}
	if r.Verdict != want {
		return fmt.Sprintf("mc verdict %s, reference %s", r.Verdict, want)
	}
	return ""
}

// firstViolation is the level boundary at which a run that stops at the
// first violation stops: the first b such that, with the levels up to b
// stored and those below b expanded, some property other than a witness
// is known to fail. An invariant failing in a state of level d, or a step
// property on a step into it, is known at boundary d; an end property
// failing in a terminal state of level d once that level is expanded, at
// d+1.
func (ref refResult) firstViolation() (int, bool) {
	b := -1
	for _, p := range ref.props {
		if p.verdict != checker.Fail || p.steps < 0 || p.kind == model.Witness || p.kind.Liveness() {
			continue
		}
		at := p.steps
		if p.kind == model.End {
			at++
		}
		if b < 0 || at < b {
			b = at
		}
	}
	return b, b >= 0
}

// wantLiveness is the verdict, per property, that opt's run must give the
// liveness properties ("" for the others), or nil when the reference did
// not decide them. Without opt.Continue, none is checked after a safety
// property failed, and none after the first that fails.
func wantLiveness(ref refResult, opt checker.Options) []checker.Verdict {
	_, safetyFailed := ref.firstViolation()
	for _, p := range ref.props {
		safetyFailed = safetyFailed || (p.kind == model.Witness && p.verdict == checker.Fail)
	}
	if ref.live == nil && (opt.Continue || !safetyFailed) {
		return nil
	}
	want := make([]checker.Verdict, len(ref.props))
	failed := safetyFailed
	for i, p := range ref.props {
		switch {
		case !p.kind.Liveness():
		case failed && !opt.Continue:
			want[i] = checker.NotChecked
		default:
			want[i] = ref.live[opt.Fair][i]
			failed = failed || want[i] == checker.Fail
		}
	}
	return want
}

// mismatchStopped compares a run that must have stopped at level boundary
// b (firstViolation) with the reference: the figures of levels 0..b stored
// and 0..b-1 expanded; the properties decided by then with their shortest
// traces, every other one NotChecked; the verdict Fail. With safety, the
// run has no liveness property.
func mismatchStopped(tg checker.Target, ref refResult, r checker.Result, b int, safety bool) string {
	var want refLevel
	for d, lv := range ref.levels[:b+1] {
		want.states += lv.states
		if d < b {
			want.transitions += lv.transitions
			want.terminal += lv.terminal
		}
	}
	if !r.StoppedAtViolation || r.Verdict != checker.Fail || r.Reason != "" {
		return fmt.Sprintf("mc did not stop at the first violation (boundary %d): verdict %s, stopped %v, reason %q", b, r.Verdict, r.StoppedAtViolation, r.Reason)
	}
	if r.States != want.states || r.Transitions != want.transitions || r.Terminal != want.terminal || r.Depth != max(b-1, 0) {
		return fmt.Sprintf("stopped at boundary %d: mc states %d transitions %d terminal %d depth %d; reference %d %d %d %d",
			b, r.States, r.Transitions, r.Terminal, r.Depth, want.states, want.transitions, want.terminal, max(b-1, 0))
	}
	reported := 0
	for _, rp := range ref.props {
		if !safety || !rp.kind.Liveness() {
			reported++
		}
	}
	if len(r.Props) != reported {
		return fmt.Sprintf("mc reports %d properties, expected %d", len(r.Props), reported)
	}
	for _, p := range r.Props {
		i := slices.IndexFunc(ref.props, func(rp refProp) bool { return rp.name == p.Name })
		if i < 0 {
			return fmt.Sprintf("mc reports property %s, which the system does not have", p.Name)
		}
		rp := ref.props[i]
		decided := rp.steps >= 0 && !rp.kind.Liveness() && (rp.steps < b || rp.steps == b && rp.kind != model.End)
		wantV := checker.NotChecked
		if decided {
			wantV = rp.verdict
			if rp.kind == model.Witness {
				wantV = checker.Pass
			}
		}
		if p.Verdict != wantV {
			return fmt.Sprintf("stopped at boundary %d: property %s: mc %s, expected %s", b, p.Name, p.Verdict, wantV)
		}
		if !decided {
			continue
		}
		if p.Trace == nil || len(p.Trace.Steps) != rp.steps {
			return fmt.Sprintf("stopped at boundary %d: property %s: mc's trace is not the shortest, of %d steps", b, p.Name, rp.steps)
		}
		if why := replayDecides(tg, i, p); why != "" {
			return fmt.Sprintf("property %s: mc's trace %s", p.Name, why)
		}
	}
	shortest := -1
	for _, rp := range ref.props {
		if rp.verdict == checker.Fail && rp.steps >= 0 && (shortest < 0 || rp.steps < shortest) {
			shortest = rp.steps
		}
	}
	if f := r.Failure(); f == nil || f.Trace == nil || len(f.Trace.Steps) != shortest {
		return fmt.Sprintf("mc's first failure %v is not a shortest violation, of %d steps", f, shortest)
	}
	return ""
}

// replayDecides replays p's trace through the Stepper and checks that its
// last state (or last step, for a step property) decides property i.
func replayDecides(tg checker.Target, i int, p checker.PropResult) string {
	init := tg.Initial()
	if p.Trace.Init < 0 || p.Trace.Init >= len(init) {
		return fmt.Sprintf("starts from initial state %d of %d", p.Trace.Init, len(init))
	}
	s := init[p.Trace.Init]
	var last checker.Move
	for k, st := range p.Trace.Steps {
		m, err := tg.Step(s, st.Action)
		if err != nil {
			return fmt.Sprintf("does not replay at step %d: %v", k+1, err)
		}
		s, last = m.To, m
	}
	if p.Kind == model.Step {
		if len(p.Trace.Steps) == 0 || !slices.Contains(last.Broken, p.Name) {
			return "does not end in a step that breaks it"
		}
		return ""
	}
	snap, err := tg.Inspect(s)
	if err != nil {
		return err.Error()
	}
	for _, st := range snap.Props {
		if st.Name != p.Name {
			continue
		}
		switch {
		case p.Kind == model.Witness && !st.Holds:
			return "ends in a state that is not a witness"
		case p.Kind == model.Invariant && st.Holds:
			return "ends in a state that satisfies the invariant"
		case p.Kind == model.End && (!st.Evaluated || st.Holds):
			return "does not end in a terminal state failing it"
		}
		return ""
	}
	return "ends in a state without the property"
}

// mode is one way of running mc. A new exploration mode is one more entry in
// modes; every differential test runs every entry. A mode that costs an
// fsync per level sets every: the random-spec test runs it on one seed in
// every.
type mode struct {
	name  string
	every uint64
	// opt is what the run is asked; run may add paths and callbacks.
	opt checker.Options
	run func(t *testing.T, tg checker.Target, opt checker.Options) checker.Result
}

func plain(t *testing.T, tg checker.Target, opt checker.Options) checker.Result {
	if opt.Disk != "" {
		opt.Disk = filepath.Join(t.TempDir(), "store")
	}
	return tg.Check(context.Background(), opt)
}

// interruptResume checkpoints at every level, cancels the run from its
// progress callback once it reaches level stopAt, then resumes it.
func interruptResume(stopAt int) func(*testing.T, checker.Target, checker.Options) checker.Result {
	return func(t *testing.T, tg checker.Target, opt checker.Options) checker.Result {
		dir := t.TempDir()
		if opt.Disk != "" {
			opt.Disk = filepath.Join(dir, "store")
		}
		opt.Checkpoint = filepath.Join(dir, "ckpt")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		first := opt
		first.ProgressEvery = 1
		first.Progress = func(p checker.Progress) {
			if p.Depth >= stopAt {
				cancel()
			}
		}
		r := tg.Check(ctx, first)
		if r.Err != nil || opt.Disk != "" && r.Reason == "" {
			return r // a disk run that finished removed its working files: no resume
		}
		opt.Resume = true
		return tg.Check(context.Background(), opt)
	}
}

// The modes with Continue check every property to the end; the others stop
// at the first violation, mc's default.
var modes = []mode{
	{"workers=1", 1, checker.Options{Workers: 1, Safety: true, Continue: true}, plain},
	{"workers=2", 1, checker.Options{Workers: 2, Safety: true, Continue: true}, plain},
	{"exact", 1, checker.Options{Workers: 2, Exact: true, Safety: true, Continue: true}, plain},
	{"disk workers=1", 1, checker.Options{Workers: 1, Disk: "-", Safety: true, Continue: true}, plain},
	{"disk workers=2", 1, checker.Options{Workers: 2, Disk: "-", Safety: true, Continue: true}, plain},
	{"interrupt at level 1, resume", 4, checker.Options{Workers: 2, Safety: true, Continue: true}, interruptResume(1)},
	{"interrupt at level 3, resume", 4, checker.Options{Workers: 1, Safety: true, Continue: true}, interruptResume(3)},
	{"disk, interrupt at level 2, resume", 4, checker.Options{Workers: 2, Disk: "-", Safety: true, Continue: true}, interruptResume(2)},
	{"partial-order reduction", 1, checker.Options{Workers: 2, Reduce: true, Safety: true, Continue: true}, plain},
	{"liveness, no fairness", 1, checker.Options{Workers: 2, Fair: model.FairNone, Continue: true}, plain},
	{"liveness, weak fairness per process", 1, checker.Options{Workers: 1, Fair: model.FairProcess, Continue: true}, plain},
	{"liveness, weak fairness per process, workers=2", 2, checker.Options{Workers: 2, Fair: model.FairProcess, Continue: true}, plain},
	{"liveness, weak fairness per action", 1, checker.Options{Workers: 2, Fair: model.FairAction, Continue: true}, plain},
	{"liveness, graph on disk, weak fairness per process", 1, checker.Options{Workers: 1, Disk: "-", Fair: model.FairProcess, Continue: true}, plain},
	{"first violation, workers=1", 1, checker.Options{Workers: 1, Safety: true}, plain},
	{"first violation, workers=2", 1, checker.Options{Workers: 2, Safety: true}, plain},
	{"first violation, disk workers=2", 1, checker.Options{Workers: 2, Disk: "-", Safety: true}, plain},
	{"first violation, interrupt at level 1, resume", 4, checker.Options{Workers: 2, Safety: true}, interruptResume(1)},
	{"first violation, disk, interrupt at level 2, resume", 4, checker.Options{Workers: 1, Disk: "-", Safety: true}, interruptResume(2)},
	{"first violation, liveness, no fairness", 1, checker.Options{Workers: 2, Fair: model.FairNone}, plain},
	{"first violation, liveness, weak fairness per process", 1, checker.Options{Workers: 1, Fair: model.FairProcess}, plain},
	{"first violation, liveness, weak fairness per process, workers=2", 2, checker.Options{Workers: 2, Fair: model.FairProcess}, plain},
	{"first violation, liveness, graph on disk, no fairness", 2, checker.Options{Workers: 2, Disk: "-", Fair: model.FairNone}, plain},
}

// diffModes runs tg in every mode due for seed and returns the first
// disagreement with the reference, or "". Seed 0 runs every mode.
func diffModes(t *testing.T, tg checker.Target, ms []mode, seed uint64) string {
	ref, err := reference(tg)
	if err != nil {
		return fmt.Sprintf("reference: %v", err)
	}
	for _, m := range ms {
		if seed%m.every != 0 {
			continue
		}
		if why := mismatch(tg, ref, m.run(t, tg, m.opt), m.opt); why != "" {
			return m.name + ": " + why
		}
	}
	return ""
}
