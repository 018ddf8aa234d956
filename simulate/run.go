package simulate

import (
	"bytes"
	"context"
	"math/rand/v2"
	"unsafe"

	"github.com/ringcheck/mc/model"
)

// Run is what one run did.
type Run struct {
	// Index is the run's number, 0-based: run r of seed S.
	Index int `json:"run"`
	// IDs is the run's arrangement of ids when each run draws its own
	// (--random-ids); nil otherwise.
	IDs []int `json:"ids,omitempty"`
	// Orientation is the run's orientation assignment when each run draws
	// its own (Options.RandomOrientation); nil otherwise.
	Orientation []bool `json:"-"`
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
	// Witnessed names the witness properties that held in some state of
	// the run. (With random ids each run has a system of its own, whose
	// witnesses may differ: Chang–Roberts' worst-case witness is there
	// only for a descending arrangement.)
	Witnessed []string `json:"-"`
	// Met names the properties whose situation arose in the run
	// (model/vacuity.go): a state, a step or its terminal state.
	Met []string `json:"-"`
	// Failure is the first property the run broke, or nil.
	Failure *Failure `json:"failure,omitempty"`
	// Actions are the run's actions up to its failure, kept only when the
	// run is replayed to be written out (Replay).
	Actions []model.Action `json:"-"`
	// visits are the states the run reached, with coverage on, until they
	// are counted (coverage.go).
	visits []visit
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
	// Step is the number of steps taken when it broke.
	Step int `json:"step"`
}

// runner runs one system again and again; a worker keeps one per system.
//
// It applies each action in place (model.Rule.Do), to cur and then to
// prev, so that prev is the state before the step while the properties are
// checked and no state is ever copied during a run: a copy costs the whole
// state (O(n) bytes at n processes), an action only what it touches. A
// rule's effect is a function of the state and the action (the traces'
// replay rests on it), so prev becomes cur again. An action whose effect
// blocks (a send to a full channel) leaves cur half-applied: cur is made
// prev again.
type runner[S any] struct {
	sys   *model.System[S]
	sched *scheduler[S]
	// cur is the current state, prev the one before the last step.
	cur, prev S
	props     []prop[S]
	// reads are the distinct Reads functions of the properties.
	reads []reads[S]
	// witnesses are the indices of its witness properties, and held[k]
	// says witness k held in some state of the run so far.
	witnesses []int
	held      []bool
	// met[i] says property i's situation arose in the run so far.
	met []bool
	// scratch and enc are where coverage fingerprints a state.
	scratch S
	enc     []byte
}

// prop is one property with what the runner remembers of it during a run.
type prop[S any] struct {
	p *model.Property[S]
	// reads indexes runner.reads, -1 when the property says nothing of
	// what it reads.
	reads int
	// from and goal are the values of P and Q (or of an invariant) in
	// the last state where its reads changed.
	from, goal bool
	// pending, for "P leads to Q", marks a P state not yet followed by Q;
	// for "eventually Q", that Q has not held yet.
	pending bool
}

// reads is one Reads function (model.Property.Reads) with what it read in
// the last state. Properties built from one library share theirs (every
// election property reads the decisions): a state's reads are then
// appended and compared once per step, not once per property.
type reads[S any] struct {
	f    func(buf []byte, s *S) []byte
	last []byte
	buf  []byte
	// known says last holds the reads of the state before; changed, that
	// the current state reads differently.
	known, changed bool
}

func newRunner[S any](sys *model.System[S]) *runner[S] {
	r := &runner[S]{sys: sys, sched: newScheduler(sys)}
	byClosure := map[unsafe.Pointer]int{}
	for i := range sys.Props {
		p := &sys.Props[i]
		q := prop[S]{p: p, reads: -1}
		if p.Reads != nil {
			key := closure(p.Reads)
			k, ok := byClosure[key]
			if !ok {
				k = len(r.reads)
				byClosure[key] = k
				r.reads = append(r.reads, reads[S]{f: p.Reads})
			}
			q.reads = k
		}
		r.props = append(r.props, q)
		if p.Kind == model.Witness {
			r.witnesses = append(r.witnesses, i)
		}
	}
	return r
}

// closure identifies a func value: a func value is a pointer to its
// closure, the code and the variables it captured, so that two equal
// pointers are one function. Two closures of the same code over different
// variables have different pointers, and are kept apart.
func closure[F any](f F) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&f)) }

// run follows one run of at most maxSteps steps, drawing from gen, unless
// ctx is cancelled meanwhile; with record it keeps the actions, with cover
// the states it reaches (coverage.go).
func (r *runner[S]) run(ctx context.Context, gen *rand.Rand, maxSteps int, record, cover bool) Run {
	sys := r.sys
	out := Run{}
	r.held = append(r.held[:0], make([]bool, len(r.witnesses))...)
	r.met = append(r.met[:0], make([]bool, len(r.props))...)
	if len(sys.Init) > 1 {
		out.Init = gen.IntN(len(sys.Init))
	}
	sys.Copy(&r.cur, &sys.Init[out.Init])
	sys.Copy(&r.prev, &sys.Init[out.Init])
	r.sched.reset(&r.cur)
	for i := range r.props {
		q := &r.props[i]
		q.pending = q.p.Kind == model.Eventually && !q.p.Terminal
	}
	for k := range r.reads {
		r.reads[k].known = false
	}
	if cover {
		out.visits = append(out.visits, visit{group: -1, fp: r.fingerprint(&r.cur)})
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
			// Cut, not terminated: no counterexample to a termination
			// property, which only a run that never ends breaks.
			return r.end(&out)
		}
		do := sys.Rules[a.Rule].Do
		if !do(&r.cur, a.Proc, a.Choice) {
			sys.Copy(&r.cur, &r.prev)
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
		if cover {
			out.visits = append(out.visits, visit{group: int32(a.Rule*sys.Procs + a.Proc), fp: r.fingerprint(&r.cur)})
		}
		f := r.check(&out, &r.prev, a)
		do(&r.prev, a.Proc, a.Choice)
		if f != nil {
			out.Failure = f
			return r.end(&out)
		}
		r.sched.taken(&r.cur, a)
	}
}

// end reads the measures in the run's last state, and names the witnesses
// that held.
func (r *runner[S]) end(out *Run) Run {
	for k, i := range r.witnesses {
		if r.held[k] {
			out.Witnessed = append(out.Witnessed, r.sys.Props[i].Name)
		}
	}
	for i, met := range r.met {
		if met {
			out.Met = append(out.Met, r.sys.Props[i].Name)
		}
	}
	out.Measures = make([]int, len(r.sys.Measures))
	last := &r.cur
	for i := range r.sys.Measures {
		out.Measures[i] = r.sys.Measures[i].Value(last)
	}
	return *out
}

// check evaluates the properties in r.cur, reached from before by a (nil
// at the start), and returns the first that fails.
func (r *runner[S]) check(out *Run, before *S, a model.Action) *Failure {
	s := &r.cur
	for k := range r.reads {
		r.reads[k].read(s)
	}
	for i := range r.props {
		q := &r.props[i]
		changed := q.reads < 0 || r.reads[q.reads].changed
		switch q.p.Kind {
		case model.Invariant:
			if changed {
				q.goal = q.p.State(s)
			}
			if !q.goal {
				return &Failure{Property: q.p.Name, Kind: q.p.Kind, Step: out.Steps}
			}
		case model.Step:
			if before != nil && changed && !q.p.Trans(before, a, s) {
				return &Failure{Property: q.p.Name, Kind: q.p.Kind, Step: out.Steps}
			}
		case model.LeadsTo:
			if changed {
				q.from, q.goal = q.p.From(s), q.p.State(s)
			}
			switch {
			case q.pending && q.goal:
				q.pending = false
			case !q.pending && q.from && !q.goal:
				q.pending = true
			}
		case model.Eventually:
			if q.pending && changed && q.p.State(s) {
				q.pending = false
			}
		}
	}
	for k, i := range r.witnesses {
		if q := &r.props[i]; !r.held[k] && (q.reads < 0 || r.reads[q.reads].changed) {
			r.held[k] = q.p.State(s)
		}
	}
	r.observe(before, a)
	return nil
}

// observe notes the situations (model/vacuity.go) that r.cur, reached
// from before by a (nil at the start), meets. A subject reads only what
// its property reads, so it is evaluated only where that changed; a step
// subject holds on no step that leaves it unchanged.
func (r *runner[S]) observe(before *S, a model.Action) {
	s := &r.cur
	for i := range r.props {
		q := &r.props[i]
		if r.met[i] {
			continue
		}
		changed := q.reads < 0 || r.reads[q.reads].changed
		switch q.p.Situation() {
		case model.InState:
			r.met[i] = changed && q.p.SituationState()(s)
		case model.OnStep:
			r.met[i] = before != nil && (q.p.StepSubject == nil || changed && q.p.StepSubject(before, a, s))
		}
	}
}

// read notes whether s reads differently from the state before. A state
// property has the same value in states that read alike, and a step
// property holds on a step that leaves what it reads alone; the first
// state of a run reads differently from none.
func (rd *reads[S]) read(s *S) {
	rd.buf = rd.f(rd.buf[:0], s)
	rd.changed = !rd.known || !bytes.Equal(rd.buf, rd.last)
	if rd.changed {
		rd.last, rd.buf = rd.buf, rd.last
	}
	rd.known = true
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
			r.met[i] = r.met[i] || q.p.Situation() == model.AtEnd && (q.p.Subject == nil || q.p.Subject(&r.cur))
		case model.LeadsTo, model.Eventually:
			broken = q.pending
		}
		if broken {
			return &Failure{Property: q.p.Name, Kind: q.p.Kind, Deadlock: true, Step: out.Steps}
		}
	}
	return nil
}
