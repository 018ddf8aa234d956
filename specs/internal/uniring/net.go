package uniring

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Net is what both specs know about the ring they run on: ids, topology and
// channel semantics, with the actions' shared plumbing.
type Net struct {
	IDs []int
	ring.Net
	Params model.Params
}

// NewNet returns the net for validated parameters p.
func NewNet(p model.Params) (*Net, error) {
	if err := CheckParams(&p); err != nil {
		return nil, err
	}
	return &Net{IDs: p.IDs, Net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}, Params: p}, nil
}

// Send puts m on i's outgoing channel, to its successor; false if it blocks.
// With claims on it counts ⟨elect⟩ messages in the ghost.
func (n *Net) Send(s *State, i int, m Msg) bool {
	if !s.send(n.Ring.Succ(i), m, n.Sem) {
		return false
	}
	if n.Params.Claims && m.Kind == Elect {
		s.countElect()
	}
	return true
}

// SendOwn sends ⟨elect id(i)⟩.
func (n *Net) SendOwn(s *State, i int) bool {
	return n.Send(s, i, Msg{Kind: Elect, ID: n.IDs[i]})
}

// Conclude handles the messages both specs treat alike, once the elect
// cases that differ are dealt with: ⟨elect id(i)⟩ came back, so i is the
// leader and announces ⟨done id(i)⟩; ⟨done j⟩ from another makes i lost and is
// forwarded; i's own ⟨done⟩ is dropped, ending the election.
func (n *Net) Conclude(s *State, i int, m Msg) bool {
	me := n.IDs[i]
	switch {
	case m.Kind == Elect:
		s.Decide(i, invariants.Leader)
		return n.Send(s, i, Msg{Kind: Done, ID: me})
	case m.ID != me:
		s.Decide(i, invariants.Lost)
		return n.Send(s, i, m)
	}
	return true
}

// HasMessage is the guard of recv(i).
func (n *Net) HasMessage(s *State, i int) bool { return s.Pending(i) > 0 }

// RecvChoices is the number of receives process i's channel offers.
func (n *Net) RecvChoices(s *State, i int) int { return s.choices(i, n.Sem) }

// Receive removes receive choice k from process i's channel.
func (n *Net) Receive(s *State, i, k int) Msg { return s.recv(i, k, n.Sem) }

// Peek is the message receive choice k at process i would take.
func (n *Net) Peek(s *State, i, k int) Msg { return s.peek(i, k, n.Sem) }

// RecvLabel renders recv(i) as "recv p2 ⟨elect 5⟩".
func (n *Net) RecvLabel(s *State, i, k int) string {
	return fmt.Sprintf("recv p%d %v", i, n.Peek(s, i, k))
}

// StartLabel renders start(i) as "start p0 (sends ⟨elect 3⟩)".
func (n *Net) StartLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("start p%d (sends ⟨elect %d⟩)", i, n.IDs[i])
}

// StartFootprint is what start(i) touches: i's flag and decision, and
// In[succ(i)], to which it sends ⟨elect id(i)⟩ (counted in the ghost with
// claims on). Channel j is In[j], process j's input channel.
func (n *Net) StartFootprint(i int) model.Footprint {
	return model.Footprint{Proc: i, Send: []int{n.Ring.Succ(i)}, Ghost: n.Params.Claims}
}

// RecvFootprint is what recv(i) touches: start's footprint and In[i], from
// which it receives.
func (n *Net) RecvFootprint(i int) model.Footprint {
	f := n.StartFootprint(i)
	f.Recv = []int{i}
	return f
}

// System assembles a spec's system from its rules; flag is the spec's word
// for the flag and ref its seed section.
func (n *Net) System(spec, variant, flag, ref string, rules []model.Rule[State]) *model.System[State] {
	p := n.Params
	p.Variant = variant
	var measures []model.Measure[State]
	if p.Claims {
		measures = []model.Measure[State]{{Name: "election-messages", Ref: ref,
			Doc:   "⟨elect⟩ messages sent in a run, those already in transit initially included (the ⟨done⟩ announcement apart)",
			Value: func(s *State) int { return s.ElectSent() }, Reads: AppendGhost}}
	}
	return &model.System[State]{
		Spec:      spec,
		Variant:   variant,
		Params:    p,
		Procs:     p.N,
		Init:      []State{New(p.N)},
		Rules:     rules,
		Props:     Properties(&p, ref),
		Ends:      model.EveryEnd[State], // election-complete judges every terminal state
		Measures:  measures,
		Copy:      Copy,
		Encode:    Encode,
		Decode:    Decoder(p.N),
		Erase:     Erase,
		Vars:      Vars(flag, p.Claims),
		View:      n.View,
		InTransit: n.InTransit,
		Chans:     n.Net.Semantics(), // channel j is process j's input channel
	}
}

// InTransit lists the messages View shows, process i's input channel as
// channel i (model.System.InTransit).
func (n *Net) InTransit(s *State, visit func(ch int, kind string, msg []byte)) {
	var buf []byte
	for i := range s.Procs() {
		for _, m := range s.Messages(i) {
			buf = m.AppendTo(buf[:0])
			visit(i, m.KindName(), buf)
		}
	}
}

// View pictures s for mc's drawings: each process with its id and decision,
// and process i's input channel as the link from its predecessor to i.
func (n *Net) View(s *State) model.View {
	v := model.View{Procs: invariants.ProcViews(n.IDs, s), Chans: make([]model.ChanView, s.Procs())}
	for i := range v.Chans {
		msgs, kinds := make([]string, 0, s.Pending(i)), make([]string, 0, s.Pending(i))
		for _, m := range s.Messages(i) {
			msgs, kinds = append(msgs, m.String()), append(kinds, m.KindName())
		}
		v.Chans[i] = model.ChanView{From: n.Ring.Pred(i), To: i, Name: fmt.Sprintf("p%d.in", i), Msgs: msgs, Kinds: kinds}
	}
	return v
}
