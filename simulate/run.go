package simulate

import (
	"bytes"
	"context"
	"math/rand/v2"

	"mc/model"
)

// Run is what one run did.
type Run struct {
	// Index is the run's number, 0-based: run r of seed S.
	Index int `json:"run"`
	// IDs is the run's arrangement of ids when each run draws its own
	// (--random-ids); nil otherwise.
	IDs []int `json:"ids,omitempty"`
	// Init is the index of the initial state it started from.
	Init int `json:"init"`
	// Steps is the number of actions taken.
	Steps int `json:"steps"`
	// Terminated holds when the run ended in a terminal state; false when
	// it reached the step limit (or failed before the end).
	Terminated bool `json:"terminated"`
	// Measures are the values of the system's measures in the run's last
	// state, in the system's order.
	Measures []int `json:"measures"`
	// Witnessed[i] holds when the system's i-th witness held in some state
	// of the run.
	Witnessed []bool `json:"-"`
	// Failure is the first property the run broke, or nil.
	Failure *Failure `json:"failure,omitempty"`
	// Actions are the run's actions up to its failure, kept only when the
	// run is replayed to be written out (Replay).
	Actions []model.Action `json:"-"`
	// interrupted says the simulation was stopped during the run, which
	// then counts for nothing.
	interrupted bool
}

// pollEvery is how many steps a run takes between two looks at whether
// the simulation was stopped.
const pollEvery = 1 << 12

// Failure is a property a run broke.
type Failure struct {
	Property string     `json:"property"`
	Kind     model.Kind `json:"-"`
	// Deadlock says the run broke it by ending: an end property false in
	// its terminal state, or a liveness goal never reached.
	Deadlock bool `json:"deadlock,omitempty"`
	// NotTerminated says the run broke a termination property by running
	// past the step limit: evidence, not proof, of a run that never ends.
	NotTerminated bool `json:"not_terminated,omitempty"`
	// Step is the number of steps taken when it broke.
	Step int `json:"step"`
}

// runner runs one system again and again; a worker keeps one per system.
type runner[S any] struct {
	sys   *model.System[S]
	sched *scheduler[S]
	// cur is the current state, next the successor being computed.
	cur, next S
	props     []prop[S]
	// terminates is the index of the system's termination property, which
	// a run past the step limit breaks; -1 when it has none.
	terminates int
	// witnesses are the indices of its witness properties.
	witnesses []int
	buf       []byte
}

// prop is one property with what the runner remembers of it during a run.
type prop[S any] struct {
	p *model.Property[S]
	// last is what its Reads read in the last state it was evaluated in
	// (changed).
	last  []byte
	known bool
	// from and goal are the values of P and Q (or of an invariant) in
	// that state.
	from, goal bool
	// pending, for "P leads to Q", marks a P state not yet followed by Q;
	// for "eventually Q", that Q has not held yet.
	pending bool
}

func newRunner[S any](sys *model.System[S]) *runner[S] {
	r := &runner[S]{sys: sys, sched: newScheduler(sys), terminates: -1}
	for i := range sys.Props {
		p := &sys.Props[i]
		r.props = append(r.props, prop[S]{p: p})
		switch {
		case p.Kind == model.Witness:
			r.witnesses = append(r.witnesses, i)
		case p.Kind == model.Eventually && p.Terminal:
			r.terminates = i
		}
	}
	return r
}

// run follows one run of at most maxSteps steps, drawing from gen, unless
// ctx is cancelled meanwhile; with record it keeps the actions.
func (r *runner[S]) run(ctx context.Context, gen *rand.Rand, maxSteps int, record bool) Run {
	sys := r.sys
	out := Run{Witnessed: make([]bool, len(r.witnesses))}
	if len(sys.Init) > 1 {
		out.Init = gen.IntN(len(sys.Init))
	}
	sys.Copy(&r.cur, &sys.Init[out.Init])
	r.sched.reset(&r.cur)
	for i := range r.props {
		q := &r.props[i]
		q.known, q.pending = false, q.p.Kind == model.Eventually && !q.p.Terminal
	}
	if f := r.check(&out, nil, model.Action{}); f != nil {
		out.Failure = f
		return r.end(&out)
	}
	for {
		a, ok := r.sched.draw(gen)
		if !ok {
			out.Terminated = true
			out.Failure = r.terminal(&out)
			return r.end(&out)
		}
		if out.Steps == maxSteps {
			if r.terminates >= 0 {
				out.Failure = &Failure{Property: sys.Props[r.terminates].Name, Kind: model.Eventually, NotTerminated: true, Step: out.Steps}
			}
			return r.end(&out)
		}
		if !sys.Apply(&r.cur, a, &r.next) {
			r.sched.blocked(&r.cur, a)
			continue
		}
		out.Steps++
		if out.Steps%pollEvery == 0 && ctx.Err() != nil {
			out.interrupted = true
			return out
		}
		if record {
			out.Actions = append(out.Actions, a)
		}
		f := r.check(&out, &r.cur, a)
		r.cur, r.next = r.next, r.cur
		if f != nil {
			out.Failure = f
			return r.end(&out)
		}
		r.sched.taken(&r.cur, a)
	}
}

// end reads the measures in the run's last state.
func (r *runner[S]) end(out *Run) Run {
	out.Measures = make([]int, len(r.sys.Measures))
	last := &r.cur
	for i := range r.sys.Measures {
		out.Measures[i] = r.sys.Measures[i].Value(last)
	}
	return *out
}

// check evaluates the properties in the state reached (r.next after a step
// from before by a, r.cur at the start, before nil) and returns the first
// that fails.
func (r *runner[S]) check(out *Run, before *S, a model.Action) *Failure {
	s := &r.next
	if before == nil {
		s = &r.cur
	}
	for i := range r.props {
		q := &r.props[i]
		switch q.p.Kind {
		case model.Invariant:
			if r.changed(q, s) {
				q.goal = q.p.State(s)
			}
			if !q.goal {
				return &Failure{Property: q.p.Name, Kind: q.p.Kind, Step: out.Steps}
			}
		case model.Step:
			if before != nil && r.changed(q, s) && !q.p.Trans(before, a, s) {
				return &Failure{Property: q.p.Name, Kind: q.p.Kind, Step: out.Steps}
			}
		case model.LeadsTo:
			if r.changed(q, s) {
				q.from, q.goal = q.p.From(s), q.p.State(s)
			}
			switch {
			case q.pending && q.goal:
				q.pending = false
			case !q.pending && q.from && !q.goal:
				q.pending = true
			}
		case model.Eventually:
			if q.pending && r.changed(q, s) && q.p.State(s) {
				q.pending = false
			}
		}
	}
	for k, i := range r.witnesses {
		if q := &r.props[i]; !out.Witnessed[k] && r.changed(q, s) {
			out.Witnessed[k] = q.p.State(s)
		}
	}
	return nil
}

// changed reports whether q must be evaluated again in s: unless q says
// what it reads (model.Property.Reads), always; else when s reads
// differently from the last state it was evaluated in. A state property
// has the same value in states that read alike, and a step property holds
// on a step that leaves what it reads alone.
func (r *runner[S]) changed(q *prop[S], s *S) bool {
	if q.p.Reads == nil {
		return true
	}
	r.buf = q.p.Reads(r.buf[:0], s)
	if q.known && bytes.Equal(r.buf, q.last) {
		return false
	}
	q.last, q.known = append(q.last[:0], r.buf...), true
	return true
}

// terminal evaluates, in the run's terminal state, the end properties and
// the liveness goals the run never reached.
func (r *runner[S]) terminal(out *Run) *Failure {
	for i := range r.props {
		q := &r.props[i]
		broken := false
		switch q.p.Kind {
		case model.End:
			broken = !q.p.State(&r.cur)
		case model.LeadsTo, model.Eventually:
			broken = q.pending
		}
		if broken {
			return &Failure{Property: q.p.Name, Kind: q.p.Kind, Deadlock: true, Step: out.Steps}
		}
	}
	return nil
}
