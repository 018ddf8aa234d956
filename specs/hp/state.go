package hp

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Kind is a message's type.
type Kind uint8

const (
	// Elect is the seed's message (rnd, id[, counter]).
	Elect Kind = iota
	// Announce is ⟨leader j⟩, the announcement this spec adds: the process
	// with id j was elected.
	Announce
)

// Msg is an election message or an announcement.
type Msg struct {
	Kind Kind
	// Rnd and ID are the seed's message.rnd and message.id (its label).
	Rnd, ID int
	// Counter is the promotion-by-distance counter; 0 in rounds without
	// one.
	Counter int
	// Hops is a ghost: the edges travelled since the message's sender (its
	// host) sent it in this round. Zero unless claims are on.
	Hops int
}

// Compare orders messages field by field.
func (m Msg) Compare(o Msg) int {
	switch {
	case m.Kind != o.Kind:
		return int(m.Kind) - int(o.Kind)
	case m.Rnd != o.Rnd:
		return m.Rnd - o.Rnd
	case m.ID != o.ID:
		return m.ID - o.ID
	case m.Counter != o.Counter:
		return m.Counter - o.Counter
	}
	return m.Hops - o.Hops
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	buf = append(buf, byte(m.Kind))
	for _, x := range [...]int{m.Rnd, m.ID, m.Counter, m.Hops} {
		buf = model.AppendUint(buf, uint64(x))
	}
	return buf
}

func (m Msg) String() string {
	switch {
	case m.Kind == Announce:
		return fmt.Sprintf("⟨leader %d⟩", m.ID)
	case m.Counter > 0:
		return fmt.Sprintf("⟨rnd %d, id %d, counter %d⟩", m.Rnd, m.ID, m.Counter)
	}
	return fmt.Sprintf("⟨rnd %d, id %d⟩", m.Rnd, m.ID)
}

// KindName is elect for the seed's message, leader for the announcement
// (model.Kinded).
func (m Msg) KindName() string {
	if m.Kind == Announce {
		return "leader"
	}
	return "elect"
}

func readMsg(d *model.Decoder) Msg {
	k := Kind(d.Int())
	return Msg{Kind: k, Rnd: d.Int(), ID: d.Int(), Counter: d.Int(), Hops: d.Int()}
}

// State is the global state: per process whether it has sent its first
// message, the seed's node.rnd and node.id (Rnd, Label: the last message it
// sent as that message's sender), what it knows of the outcome, and its
// input channel.
type State struct {
	Started []bool
	Rnd     []int
	Label   []int
	Out     invariants.Outcome
	In      ring.Chans[Msg]
	Ghost   Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go). The
// per-round counters have one bucket per round up to the round bound and
// one more that a broken mutant overflows into.
type Ghost struct {
	// Edges counts the edges traversed by election messages: every send.
	Edges int
	// Announced counts the ⟨leader⟩ messages sent.
	Announced int
	// Born[r], Destroyed[r] and ByDistance[r] count the messages that
	// entered round r, were destroyed in round r, and were promoted out of
	// round r by distance; EdgesIn[r] counts the edges that messages of
	// round r traversed (003 Theorem 1 bounds it per round).
	Born, Destroyed, ByDistance, EdgesIn []int
}

// Erase zeroes the ghost variables, those carried by messages included.
// The channels are FIFO (the spec refuses bags), so they are rebuilt in
// their order.
func Erase(s *State) {
	s.Ghost = Ghost{}
	for i := range s.In {
		msgs := append([]Msg(nil), s.In[i].Messages()...)
		s.In[i] = ring.Chan[Msg]{}
		for _, m := range msgs {
			m.Hops = 0
			s.In[i].Send(model.ChanSemantics{Kind: model.FIFO}, m)
		}
	}
}

func newState(n int, claims bool, rounds int) State {
	s := State{Started: make([]bool, n), Rnd: make([]int, n), Label: make([]int, n),
		Out: invariants.New(n), In: make(ring.Chans[Msg], n)}
	if claims {
		s.Ghost.Born, s.Ghost.Destroyed, s.Ghost.ByDistance = make([]int, rounds), make([]int, rounds), make([]int, rounds)
		s.Ghost.EdgesIn = make([]int, rounds)
	}
	return s
}

// Procs is the ring size.
func (s *State) Procs() int { return len(s.Started) }

func copyState(dst, src *State) {
	if len(dst.In) != len(src.In) {
		dst.In = make(ring.Chans[Msg], len(src.In))
	}
	dst.Started = append(dst.Started[:0], src.Started...)
	dst.Rnd = append(dst.Rnd[:0], src.Rnd...)
	dst.Label = append(dst.Label[:0], src.Label...)
	dst.Out.CopyFrom(&src.Out)
	dst.In.CopyFrom(src.In)
	g, h := &dst.Ghost, &src.Ghost
	g.Edges, g.Announced = h.Edges, h.Announced
	g.Born = model.CloneInts(g.Born, h.Born)
	g.Destroyed = model.CloneInts(g.Destroyed, h.Destroyed)
	g.ByDistance = model.CloneInts(g.ByDistance, h.ByDistance)
	g.EdgesIn = model.CloneInts(g.EdgesIn, h.EdgesIn)
}

func encode(buf []byte, s *State) []byte {
	for i := range s.Started {
		buf = model.AppendBool(buf, s.Started[i])
		buf = model.AppendUint(buf, uint64(s.Rnd[i]))
		buf = model.AppendUint(buf, uint64(s.Label[i]))
		buf = s.Out.AppendTo(buf, i)
	}
	return appendGhost(s.In.AppendTo(buf), s)
}

// appendGhost writes the ghost counters.
func appendGhost(buf []byte, s *State) []byte {
	buf = model.AppendUint(buf, uint64(s.Ghost.Edges))
	buf = model.AppendUint(buf, uint64(s.Ghost.Announced))
	buf = model.AppendInts(buf, s.Ghost.Born)
	buf = model.AppendInts(buf, s.Ghost.Destroyed)
	buf = model.AppendInts(buf, s.Ghost.ByDistance)
	return model.AppendInts(buf, s.Ghost.EdgesIn)
}

func decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.Started) != n {
			*s = newState(n, false, 0)
		}
		d := model.NewDecoder(data)
		for i := range n {
			s.Started[i] = d.Bool()
			s.Rnd[i] = d.Int()
			s.Label[i] = d.Int()
			s.Out.DecodeFrom(&d, i)
		}
		s.In.DecodeFrom(&d, readMsg)
		s.Ghost.Edges = d.Int()
		s.Ghost.Announced = d.Int()
		s.Ghost.Born = d.Ints(s.Ghost.Born)
		s.Ghost.Destroyed = d.Ints(s.Ghost.Destroyed)
		s.Ghost.ByDistance = d.Ints(s.Ghost.ByDistance)
		s.Ghost.EdgesIn = d.Ints(s.Ghost.EdgesIn)
		return d.Finish()
	}
}

func vars(net ring.Net, s *State) []model.Var {
	out := make([]model.Var, 0, 6*len(s.Started)+5)
	for i := range s.Started {
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d.started", i), Value: fmt.Sprint(s.Started[i])},
			model.Var{Name: fmt.Sprintf("p%d.node.rnd", i), Value: fmt.Sprint(s.Rnd[i])},
			model.Var{Name: fmt.Sprintf("p%d.node.id", i), Value: fmt.Sprint(s.Label[i])})
		out = append(out, s.Out.Vars(i)...)
		out = s.In.Vars(net, out, i)
	}
	if g := &s.Ghost; g.Born != nil {
		out = append(out,
			model.Var{Name: "ghost.edges", Value: fmt.Sprint(g.Edges)},
			model.Var{Name: "ghost.announced", Value: fmt.Sprint(g.Announced)},
			model.Var{Name: "ghost.born", Value: fmt.Sprint(g.Born)},
			model.Var{Name: "ghost.destroyed", Value: fmt.Sprint(g.Destroyed)},
			model.Var{Name: "ghost.by_distance", Value: fmt.Sprint(g.ByDistance)},
			model.Var{Name: "ghost.edges_in", Value: fmt.Sprint(g.EdgesIn)})
	}
	return out
}
