package uniring

import (
	"fmt"

	"mc/invariants"
	"mc/model"
)

// Net is what both specs know about the ring they run on: ids, topology and
// channel semantics, with the actions' shared plumbing.
type Net struct {
	IDs    []int
	Ring   model.Ring
	Link   model.Link
	Params model.Params
}

// NewNet returns the net for validated parameters p.
func NewNet(p model.Params) *Net {
	return &Net{IDs: p.IDs, Ring: model.Ring{N: p.N}, Link: p.Link(), Params: p}
}

// Send puts m on i's outgoing channel, to its successor; false if it blocks.
// With claims on it counts ⟨elect⟩ messages in the ghost.
func (n *Net) Send(s *State, i int, m Msg) bool {
	if !s.In[n.Ring.Succ(i)].Send(n.Link, m) {
		return false
	}
	if n.Params.Claims && m.Kind == Elect {
		s.Ghost.ElectSent++
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
		s.Decided[i] = invariants.Leader
		return n.Send(s, i, Msg{Kind: Done, ID: me})
	case m.ID != me:
		s.Decided[i] = invariants.Lost
		return n.Send(s, i, m)
	}
	return true
}

// HasMessage is the guard of recv(i).
func (n *Net) HasMessage(s *State, i int) bool { return s.In[i].Len() > 0 }

// RecvChoices is the number of receives In[i] offers.
func (n *Net) RecvChoices(s *State, i int) int { return s.In[i].Choices(n.Link) }

// Receive removes receive choice k from In[i].
func (n *Net) Receive(s *State, i, k int) Msg { return s.In[i].Recv(n.Link, k) }

// RecvLabel renders recv(i) as "recv p2 ⟨elect 5⟩".
func (n *Net) RecvLabel(s *State, i, k int) string {
	return fmt.Sprintf("recv p%d %v", i, s.In[i].Peek(n.Link, k))
}

// StartLabel renders start(i) as "start p0 (sends ⟨elect 3⟩)".
func (n *Net) StartLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("start p%d (sends ⟨elect %d⟩)", i, n.IDs[i])
}

// System assembles a spec's system from its rules; flag is the spec's word
// for State.Flag and ref its seed section.
func (n *Net) System(spec, variant, flag, ref string, rules []model.Rule[State]) *model.System[State] {
	p := n.Params
	p.Variant = variant
	return &model.System[State]{
		Spec:    spec,
		Variant: variant,
		Params:  p,
		Procs:   p.N,
		Init:    []State{New(p.N)},
		Rules:   rules,
		Props:   Properties(&p, ref),
		Copy:    Copy,
		Encode:  Encode,
		Decode:  Decoder(p.N),
		Erase:   Erase,
		Vars:    Vars(flag, p.Claims),
		View:    n.View,
	}
}

// View pictures s for mc's drawings: each process with its id and decision,
// and the channel In[i] as the link from i's predecessor to i.
func (n *Net) View(s *State) model.View {
	v := model.View{Procs: make([]model.ProcView, len(s.Decided)), Links: make([]model.LinkView, len(s.In))}
	for i := range s.Decided {
		v.Procs[i] = model.ProcView{Name: fmt.Sprintf("p%d", i), Label: fmt.Sprintf("id %d", n.IDs[i])}
		if s.Decided[i] != invariants.Undecided {
			v.Procs[i].Status = s.Decided[i].String()
		}
		msgs := make([]string, 0, s.In[i].Len())
		for _, m := range s.In[i].Messages() {
			msgs = append(msgs, m.String())
		}
		v.Links[i] = model.LinkView{From: n.Ring.Pred(i), To: i, Name: fmt.Sprintf("p%d.in", i), Msgs: msgs}
	}
	return v
}
