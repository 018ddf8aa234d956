package checker

import (
	"context"
	"fmt"
	"time"

	"mc/model"
)

// noParent marks an initial state in the trace log; its action field then
// holds the initial state's index.
const noParent = ^uint32(0)

// link is one entry of the trace log: how state i was first reached.
type link struct {
	parent uint32
	action uint32
}

// Actions are packed into 32 bits in the trace log.
const (
	maxRules   = 1 << 8
	maxProcs   = 1 << 12
	maxChoices = 1 << 12
)

func pack(a model.Action) uint32 {
	return uint32(a.Rule)<<24 | uint32(a.Proc)<<12 | uint32(a.Choice)
}

func unpack(x uint32) model.Action {
	return model.Action{Rule: int(x >> 24), Proc: int(x>>12) & (maxProcs - 1), Choice: int(x) & (maxChoices - 1)}
}

// hit records where a property was first decided: the state with index id,
// followed by the action extra for a step property, ending in a state with
// fingerprint fp.
type hit struct {
	id    uint32
	extra *model.Action
	fp    uint64
}

// level is one breadth-first level: encoded states back to back.
type level struct {
	data []byte
	ends []int
	ids  []uint32
}

func (l *level) add(enc []byte, id uint32) {
	l.data = append(l.data, enc...)
	l.ends = append(l.ends, len(l.data))
	l.ids = append(l.ids, id)
}

func (l *level) reset() { l.data, l.ends, l.ids = l.data[:0], l.ends[:0], l.ids[:0] }

type explorer[S any] struct {
	sys     *model.System[S]
	opt     Options
	visited Visited
	links   []link
	hits    []*hit
	stop    string
}

// Run explores every state of sys reachable from its initial states,
// breadth-first, and evaluates its properties. It stops early, with verdict
// Incomplete, when a limit in opt is reached or ctx is cancelled.
func Run[S any](ctx context.Context, sys *model.System[S], opt Options) Result {
	res := Result{Spec: sys.Spec, Variant: sys.Variant, Params: sys.Params}
	if err := checkShape(sys); err != nil {
		res.Err = err
		return res
	}
	e := &explorer[S]{sys: sys, opt: opt, visited: newMemTable(), hits: make([]*hit, len(sys.Props))}
	start := time.Now()
	e.explore(ctx, &res, start)
	res.Elapsed = time.Since(start)
	res.States = min(int64(e.visited.Len()), e.limit())
	res.MemoryBytes = e.visited.Bytes() + int64(cap(e.links))*8
	e.verdicts(&res)
	checkLiveness(ctx, sys, opt, &res, start)
	return res
}

func checkShape[S any](sys *model.System[S]) error {
	switch {
	case len(sys.Init) == 0:
		return fmt.Errorf("spec %s has no initial state", sys.Spec)
	case len(sys.Rules) > maxRules:
		return fmt.Errorf("spec %s has %d rules; mc supports at most %d", sys.Spec, len(sys.Rules), maxRules)
	case sys.Procs > maxProcs:
		return fmt.Errorf("spec %s has %d processes; mc supports at most %d", sys.Spec, sys.Procs, maxProcs)
	}
	return nil
}

func (e *explorer[S]) limit() int64 {
	if e.opt.MaxStates > 0 {
		return e.opt.MaxStates
	}
	return 1<<63 - 1
}

func (e *explorer[S]) explore(ctx context.Context, res *Result, start time.Time) {
	sys := e.sys
	var cur, next S
	var buf []byte
	frontier, successors := &level{}, &level{}

	for i := range sys.Init {
		buf = sys.Encode(buf[:0], &sys.Init[i])
		if !e.store(&sys.Init[i], buf, model.Fingerprint(buf), link{parent: noParent, action: uint32(i)}, frontier) {
			return
		}
	}

	every := e.opt.ProgressEvery
	if every <= 0 {
		every = time.Second
	}
	nextReport := start.Add(every)
	for depth := 0; len(frontier.ids) > 0; depth++ {
		res.Depth = depth
		successors.reset()
		from := 0
		for j, pid := range frontier.ids {
			if j&255 == 0 {
				if e.stop = interrupted(ctx, e.opt, start); e.stop != "" {
					return
				}
				if now := time.Now(); e.opt.Progress != nil && now.After(nextReport) {
					nextReport = now.Add(every)
					e.opt.Progress(Progress{States: int64(e.visited.Len()), Transitions: res.Transitions, Depth: depth,
						Frontier: len(frontier.ids) - j + len(successors.ids), Elapsed: now.Sub(start),
						MemoryBytes: e.visited.Bytes() + int64(cap(e.links))*8 + int64(cap(frontier.data)+cap(successors.data))})
				}
			}
			data := frontier.data[from:frontier.ends[j]]
			from = frontier.ends[j]
			if err := sys.Decode(data, &cur); err != nil {
				res.Err = fmt.Errorf("internal error: state %d does not decode: %v", pid, err)
				return
			}
			enabled := 0
			for ri := range sys.Rules {
				r := &sys.Rules[ri]
				for p := 0; p < sys.Procs; p++ {
					nc := r.ChoicesAt(&cur, p)
					if nc > maxChoices {
						res.Err = fmt.Errorf("internal error: rule %s has %d choices; mc supports at most %d", r.Name, nc, maxChoices)
						return
					}
					for k := 0; k < nc; k++ {
						sys.Copy(&next, &cur)
						if !r.Do(&next, p, k) {
							continue
						}
						enabled++
						res.Transitions++
						a := model.Action{Rule: ri, Proc: p, Choice: k}
						buf = sys.Encode(buf[:0], &next)
						fp := model.Fingerprint(buf)
						e.checkStep(&cur, a, &next, pid, fp)
						if !e.store(&next, buf, fp, link{parent: pid, action: pack(a)}, successors) {
							return
						}
					}
				}
			}
			if enabled == 0 {
				res.Terminal++
				e.checkEnd(&cur, pid, data)
			}
		}
		frontier, successors = successors, frontier
	}
}

// store records a state reached by how, if it is new: it enters the visited
// set, the trace log and the next level, and its invariants and witnesses
// are checked. It returns false when the state limit stops the run.
func (e *explorer[S]) store(s *S, enc []byte, fp uint64, how link, next *level) bool {
	id, fresh := e.visited.Insert(fp)
	if !fresh {
		return true
	}
	if int64(e.visited.Len()) > e.limit() {
		e.stop = fmt.Sprintf("state limit %d reached", e.opt.MaxStates)
		return false
	}
	e.links = append(e.links, how)
	e.checkState(s, id, fp)
	next.add(enc, id)
	return true
}

// interrupted says why the run must stop now, or "" to go on.
func interrupted(ctx context.Context, opt Options, start time.Time) string {
	if ctx.Err() != nil {
		return "interrupted"
	}
	if opt.Timeout > 0 && time.Since(start) > opt.Timeout {
		return fmt.Sprintf("timeout after %s", opt.Timeout)
	}
	return ""
}

// checkState evaluates invariants and witnesses on a newly found state.
func (e *explorer[S]) checkState(s *S, id uint32, fp uint64) {
	for i := range e.sys.Props {
		p := &e.sys.Props[i]
		if e.hits[i] != nil {
			continue
		}
		switch p.Kind {
		case model.Invariant:
			if !p.State(s) {
				e.hits[i] = &hit{id: id, fp: fp}
			}
		case model.Witness:
			if p.State(s) {
				e.hits[i] = &hit{id: id, fp: fp}
			}
		}
	}
}

// checkStep evaluates step properties on one transition out of state pid.
func (e *explorer[S]) checkStep(before *S, a model.Action, after *S, pid uint32, fp uint64) {
	for i := range e.sys.Props {
		p := &e.sys.Props[i]
		if p.Kind == model.Step && e.hits[i] == nil && !p.Trans(before, a, after) {
			e.hits[i] = &hit{id: pid, extra: &a, fp: fp}
		}
	}
}

// checkEnd evaluates end properties on a terminal state.
func (e *explorer[S]) checkEnd(s *S, id uint32, enc []byte) {
	for i := range e.sys.Props {
		p := &e.sys.Props[i]
		if p.Kind == model.End && e.hits[i] == nil && !p.State(s) {
			e.hits[i] = &hit{id: id, fp: model.Fingerprint(enc)}
		}
	}
}

// path rebuilds the actions that first reached state id.
func (e *explorer[S]) path(id uint32) (init int, actions []model.Action) {
	for e.links[id].parent != noParent {
		actions = append(actions, unpack(e.links[id].action))
		id = e.links[id].parent
	}
	for i, j := 0, len(actions)-1; i < j; i, j = i+1, j-1 {
		actions[i], actions[j] = actions[j], actions[i]
	}
	return int(e.links[id].action), actions
}

// verdicts turns what exploration found into per-property and overall
// verdicts, rebuilding and replaying a trace for every hit.
func (e *explorer[S]) verdicts(res *Result) {
	complete := e.stop == "" && res.Err == nil
	res.Reason = e.stop
	anyFail := false
	for i := range e.sys.Props {
		p := &e.sys.Props[i]
		pr := PropResult{Name: p.Name, Ref: p.Ref, Doc: p.Doc, Kind: p.Kind}
		if h := e.hits[i]; h != nil {
			init, actions := e.path(h.id)
			if h.extra != nil {
				actions = append(actions, *h.extra)
			}
			tr, err := render(e.sys, init, actions, h.fp)
			if err != nil {
				res.Err = err
				return
			}
			tr.Property, tr.Kind, tr.Deadlock = p.Name, p.Kind.String(), p.Kind == model.End
			pr.Trace = tr
		}
		switch {
		case p.Kind == model.Witness && e.hits[i] != nil:
			pr.Verdict = Pass
		case p.Kind == model.Witness && complete:
			pr.Verdict = Fail
		case e.hits[i] != nil:
			pr.Verdict = Fail
		case complete:
			pr.Verdict = Pass
		default:
			pr.Verdict = Incomplete
		}
		anyFail = anyFail || pr.Verdict == Fail
		res.Props = append(res.Props, pr)
	}
	switch {
	case anyFail:
		res.Verdict = Fail
	case !complete:
		res.Verdict = Incomplete
	default:
		res.Verdict = Pass
	}
}
