package checker_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// A random spec is a small guarded-command system built from a seed: a few
// shared variables over 0..bound-1, a few bounded channels (FIFO or bag) of
// values, and rules instantiated per process. Process p's rule reads and
// writes variable (v+p) mod vars, so processes interfere. Every value stays
// below bound and every channel below its capacity, so the state space is
// finite. The differential tests compare mc with the reference checker on
// such specs (reference_test.go).

// randSize bounds a random spec; shrinking a failing spec lowers these.
type randSize struct {
	Procs, Vars, Bound, Chans, Rules, Props int
}

func (z randSize) String() string {
	return fmt.Sprintf("procs=%d vars=%d bound=%d chans=%d rules=%d props=%d", z.Procs, z.Vars, z.Bound, z.Chans, z.Rules, z.Props)
}

// rstate is a random spec's state.
type rstate struct {
	v  []int
	ch []ring.Chan[rmsg]
}

// rmsg is a message: a value.
type rmsg int

func (m rmsg) Compare(o rmsg) int               { return int(m) - int(o) }
func (m rmsg) AppendTo(buf []byte) []byte       { return model.AppendUint(buf, uint64(m)) }
func (m rmsg) String() string                   { return fmt.Sprint(int(m)) }
func readMsg(d *model.Decoder) rmsg             { return rmsg(d.Int()) }
func (s *rstate) at(v, p, vars int) *int        { return &s.v[(v+p)%vars] }
func (g *rspec) link(c int) model.ChanSemantics { return g.links[c] }
func (g *rspec) value(s *rstate, v, p int) int  { return *s.at(v, p, g.size.Vars) }

// rcond is the guard conjunct "var op c".
type rcond struct{ v, op, c int }

// reffect is one effect of a rule: var := c, var := var+1 mod bound, send var
// on a channel, or var := the choice's value (a received message or k).
type reffect struct{ kind, v, c, ch int }

const (
	effAssign = iota
	effIncr
	effSend
	effTake
)

// rrule is a guarded command. src says where its choices come from: 0 one
// choice, 1 a receive on channel srcCh, 2 a nondeterministic pick of
// 0..picks-1.
type rrule struct {
	guard   []rcond
	src     int
	srcCh   int
	picks   int
	effects []reffect
	// env makes the rule an environment action, which no fairness forces.
	env bool
}

// rprop is a property over two variables (of process 0's view).
type rprop struct {
	kind       model.Kind
	a, b, c, d int
}

type rspec struct {
	seed  uint64
	size  randSize
	links []model.ChanSemantics
	init  [][]int
	rules []rrule
	props []rprop
}

// genSpec builds the random spec of seed at size z. Shrinking a failing spec
// retries its seed at smaller sizes (shrink).
func genSpec(seed uint64, z randSize) *rspec {
	r := rand.New(rand.NewPCG(seed, 0x6d63))
	g := &rspec{seed: seed, size: z}
	for range z.Chans {
		l := model.ChanSemantics{Kind: model.FIFO, Cap: 1 + r.IntN(2)}
		if r.IntN(2) == 0 {
			l.Kind = model.Bag
		}
		g.links = append(g.links, l)
	}
	for range 1 + r.IntN(2) {
		v := make([]int, z.Vars)
		for i := range v {
			v[i] = r.IntN(z.Bound)
		}
		g.init = append(g.init, v)
	}
	for range z.Rules {
		var ru rrule
		for range r.IntN(3) {
			ru.guard = append(ru.guard, rcond{v: r.IntN(z.Vars), op: r.IntN(3), c: r.IntN(z.Bound)})
		}
		switch x := r.IntN(4); {
		case x == 0 && z.Chans > 0:
			ru.src, ru.srcCh = 1, r.IntN(z.Chans)
		case x == 1:
			ru.src, ru.picks = 2, 1+r.IntN(3)
		}
		for range 1 + r.IntN(2) {
			ef := reffect{kind: r.IntN(4), v: r.IntN(z.Vars), c: r.IntN(z.Bound)}
			if ef.kind == effSend {
				if z.Chans == 0 {
					ef.kind = effIncr
				} else {
					ef.ch = r.IntN(z.Chans)
				}
			}
			if ef.kind == effTake && ru.src == 0 {
				ef.kind = effAssign
			}
			ru.effects = append(ru.effects, ef)
		}
		ru.env = r.IntN(5) == 0
		g.rules = append(g.rules, ru)
	}
	kinds := []model.Kind{model.Invariant, model.Step, model.End, model.Witness, model.LeadsTo, model.Eventually}
	for range z.Props {
		g.props = append(g.props, rprop{kind: kinds[r.IntN(len(kinds))], a: r.IntN(z.Vars), b: r.IntN(z.Vars), c: r.IntN(z.Bound), d: r.IntN(z.Bound)})
	}
	return g
}

var opNames = []string{"==", "!=", "<"}

func holds(x, op, c int) bool {
	switch op {
	case 0:
		return x == c
	case 1:
		return x != c
	}
	return x < c
}

// String prints the spec, for a mismatch report.
func (g *rspec) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, %s\n  links %v, init %v\n", g.seed, g.size, g.links, g.init)
	for i, ru := range g.rules {
		env := ""
		if ru.env {
			env = " (environment)"
		}
		fmt.Fprintf(&b, "  rule r%d%s: when", i, env)
		for _, c := range ru.guard {
			fmt.Fprintf(&b, " v[%d+p]%s%d", c.v, opNames[c.op], c.c)
		}
		switch ru.src {
		case 1:
			fmt.Fprintf(&b, " recv k from ch%d", ru.srcCh)
		case 2:
			fmt.Fprintf(&b, " pick k<%d", ru.picks)
		}
		b.WriteString(" do")
		for _, ef := range ru.effects {
			switch ef.kind {
			case effAssign:
				fmt.Fprintf(&b, " v[%d+p]:=%d;", ef.v, ef.c)
			case effIncr:
				fmt.Fprintf(&b, " v[%d+p]++;", ef.v)
			case effSend:
				fmt.Fprintf(&b, " send v[%d+p] on ch%d;", ef.v, ef.ch)
			case effTake:
				fmt.Fprintf(&b, " v[%d+p]:=k;", ef.v)
			}
		}
		b.WriteByte('\n')
	}
	for i, p := range g.props {
		fmt.Fprintf(&b, "  prop %s p%d: a=%d b=%d c=%d d=%d\n", p.kind, i, p.a, p.b, p.c, p.d)
	}
	return b.String()
}

// system builds the model.System of the spec.
func (g *rspec) system() *model.System[rstate] {
	z := g.size
	sys := &model.System[rstate]{Spec: "random", Variant: fmt.Sprint(g.seed), Procs: z.Procs,
		Params: model.Params{N: z.Procs, IDs: ring.DescendingIDs(z.Procs)}, Ends: model.EveryEnd[rstate]}
	for _, v := range g.init {
		sys.Init = append(sys.Init, rstate{v: append([]int(nil), v...), ch: make([]ring.Chan[rmsg], z.Chans)})
	}
	for i := range g.rules {
		ru := &g.rules[i]
		rule := model.Rule[rstate]{Name: fmt.Sprintf("r%d", i), Env: ru.env}
		rule.Guard = func(s *rstate, p int) bool {
			for _, c := range ru.guard {
				if !holds(g.value(s, c.v, p), c.op, c.c) {
					return false
				}
			}
			return ru.src != 1 || s.ch[ru.srcCh].Len() > 0
		}
		switch ru.src {
		case 1:
			rule.Choices = func(s *rstate, p int) int { return s.ch[ru.srcCh].Choices(g.link(ru.srcCh)) }
		case 2:
			rule.Choices = func(*rstate, int) int { return ru.picks }
		}
		rule.Do = func(s *rstate, p, k int) bool {
			taken := k
			if ru.src == 1 {
				taken = int(s.ch[ru.srcCh].Recv(g.link(ru.srcCh), k))
			}
			for _, ef := range ru.effects {
				x := s.at(ef.v, p, z.Vars)
				switch ef.kind {
				case effAssign:
					*x = ef.c
				case effIncr:
					*x = (*x + 1) % z.Bound
				case effSend:
					if !s.ch[ef.ch].Send(g.link(ef.ch), rmsg(*x)) {
						return false
					}
				case effTake:
					*x = taken % z.Bound
				}
			}
			return true
		}
		sys.Rules = append(sys.Rules, rule)
	}
	for i, pr := range g.props {
		name := fmt.Sprintf("p%d-%s", i, pr.kind)
		switch pr.kind {
		case model.Invariant:
			sys.Props = append(sys.Props, model.InvariantProp(name, "", "", func(s *rstate) bool { return s.v[pr.a] != pr.c || s.v[pr.b] != pr.d }))
		case model.End:
			sys.Props = append(sys.Props, model.EndProp(name, "", "", func(s *rstate) bool { return s.v[pr.a] != pr.c }))
		case model.Witness:
			sys.Props = append(sys.Props, model.WitnessProp(name, "", "", func(s *rstate) bool { return s.v[pr.a] == pr.c && s.v[pr.b] == pr.d }))
		case model.LeadsTo:
			sys.Props = append(sys.Props, model.LeadsToProp(name, "", "", func(s *rstate) bool { return s.v[pr.a] == pr.c }, func(s *rstate) bool { return s.v[pr.b] == pr.d }))
		case model.Eventually:
			sys.Props = append(sys.Props, model.EventuallyProp(name, "", "", func(s *rstate) bool { return s.v[pr.a] == pr.c }))
		case model.Step:
			sys.Props = append(sys.Props, model.StepProp(name, "", "", func(s *rstate, _ model.Action, t *rstate) bool {
				return s.v[pr.a] != pr.c || t.v[pr.a] != pr.d || s.v[pr.b] == t.v[pr.b]
			}))
		}
	}
	sys.Copy = func(d, s *rstate) {
		d.v = append(d.v[:0], s.v...)
		if len(d.ch) != len(s.ch) {
			d.ch = make([]ring.Chan[rmsg], len(s.ch))
		}
		for i := range s.ch {
			d.ch[i].CopyFrom(&s.ch[i])
		}
	}
	sys.Encode = func(buf []byte, s *rstate) []byte {
		buf = model.AppendInts(buf, s.v)
		for i := range s.ch {
			buf = s.ch[i].AppendTo(buf)
		}
		return buf
	}
	sys.Decode = func(data []byte, s *rstate) error {
		d := model.NewDecoder(data)
		s.v = d.Ints(s.v)
		if len(s.ch) != z.Chans {
			s.ch = make([]ring.Chan[rmsg], z.Chans)
		}
		for i := range s.ch {
			s.ch[i].DecodeFrom(&d, readMsg)
		}
		return d.Finish()
	}
	sys.Vars = func(s *rstate) []model.Var {
		var out []model.Var
		for i, x := range s.v {
			out = append(out, model.Var{Name: fmt.Sprintf("v%d", i), Value: fmt.Sprint(x)})
		}
		for i := range s.ch {
			out = append(out, model.Var{Name: fmt.Sprintf("ch%d", i), Value: s.ch[i].String()})
		}
		return out
	}
	return sys
}

// shrinkSteps are the ways a failing spec is made smaller, tried in order.
var shrinkSteps = []func(randSize) randSize{
	func(z randSize) randSize { z.Rules--; return z },
	func(z randSize) randSize { z.Props--; return z },
	func(z randSize) randSize { z.Chans--; return z },
	func(z randSize) randSize { z.Vars--; return z },
	func(z randSize) randSize { z.Bound--; return z },
	func(z randSize) randSize { z.Procs--; return z },
}

func (z randSize) valid() bool {
	return z.Procs >= 1 && z.Vars >= 1 && z.Bound >= 2 && z.Chans >= 0 && z.Rules >= 1 && z.Props >= 0
}

// shrink returns the smallest size at which seed still fails, greedily.
func shrink(seed uint64, z randSize, fails func(*rspec) bool) *rspec {
	best := genSpec(seed, z)
	for progress := true; progress; {
		progress = false
		for _, step := range shrinkSteps {
			if s := step(best.size); s.valid() {
				if g := genSpec(seed, s); fails(g) {
					best, progress = g, true
				}
			}
		}
	}
	return best
}
