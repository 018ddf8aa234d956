package ring

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
)

// flippedNet is a ring of 3 where process 1 is flipped (its Right port
// leads to process 0), with links of the given mode.
func flippedNet(mode model.Duplex) Net {
	return Net{Ring: Ring{N: 3, Bidirectional: true, Flipped: []bool{false, true, false}}, Duplex: mode}
}

func TestPeerFollowsEachProcessOrientation(t *testing.T) {
	r := Ring{N: 3, Bidirectional: true, Flipped: []bool{false, true, false}}
	cases := []struct {
		i    int
		p    Port
		j    int
		q    Port
		link int
		cw   bool
	}{
		{0, Right, 1, Right, 0, true}, // 0 → 1 clockwise, arrives at 1's counter-clockwise side: its Right
		{1, Right, 0, Right, 0, false},
		{1, Left, 2, Left, 1, true},
		{2, Right, 0, Left, 2, true},
		{0, Left, 2, Right, 2, false},
	}
	for _, c := range cases {
		j, q := r.Peer(c.i, c.p)
		k, cw := r.LinkOf(c.i, c.p)
		if j != c.j || q != c.q || k != c.link || cw != c.cw {
			t.Errorf("p%d %s: peer p%d %s on link %d cw=%v; want p%d %s link %d cw=%v", c.i, c.p, j, q, k, cw, c.j, c.q, c.link, c.cw)
		}
	}
	// On a ring of two the ports, not the neighbour, name the link.
	two := Ring{N: 2, Bidirectional: true}
	if j, q := two.Peer(0, Right); j != 1 || q != Left {
		t.Fatalf("ring of 2: p0 right reaches p%d %s, want p1 left", j, q)
	}
	if j, q := two.Peer(0, Left); j != 1 || q != Right {
		t.Fatalf("ring of 2: p0 left reaches p%d %s, want p1 right", j, q)
	}
}

// Half-duplex: one message per link, either way; full-duplex: two FIFO
// channels. Reference: ring package doc, "Links of a bidirectional ring".
func TestHalfDuplexLinkHoldsOneMessage(t *testing.T) {
	for _, mode := range []model.Duplex{model.HalfDuplex, model.FullDuplex} {
		n := flippedNet(mode)
		l := NewChans[msg](n)
		full := mode == model.FullDuplex
		if !l.Send(n, 0, Right, msg{7}) || !l.Waiting(n, 1, Right) || l.Head(n, 1, Right).v != 7 {
			t.Fatalf("%s: a send on a free link did not arrive at p1's right port", mode)
		}
		if l.CanSend(n, 1, Right) != full || l.Send(n, 1, Right, msg{8}) != full {
			t.Fatalf("%s: sending back over the busy link: allowed=%v, want %v", mode, !full, full)
		}
		if l.Send(n, 0, Right, msg{9}) != full {
			t.Fatalf("%s: a second message the same way: allowed=%v, want %v", mode, !full, full)
		}
		if l.Send(n, 0, Left, msg{1}) != true {
			t.Fatalf("%s: the other link is free", mode)
		}
		cw, ccw := l.OnLink(n, 0)
		if want := map[bool]string{false: "[7] []", true: "[7 9] [8]"}[full]; fmt.Sprint(renderMsgs(cw), " ", renderMsgs(ccw)) != want {
			t.Fatalf("%s: link 0 holds %s %s, want %s", mode, renderMsgs(cw), renderMsgs(ccw), want)
		}
		if m := l.Take(n, 1, Right); m.v != 7 || (mode == model.HalfDuplex && !l.CanSend(n, 1, Right)) {
			t.Fatalf("%s: taking the message should free the half-duplex link", mode)
		}
	}
}

func TestJointChoices(t *testing.T) {
	n := flippedNet(model.FullDuplex)
	l := NewChans[msg](n)
	if l.JointChoices(n, 1) != 0 {
		t.Fatal("nothing waits, yet receives are offered")
	}
	l.Send(n, 0, Right, msg{1})
	if l.JointChoices(n, 1) != 1 || l.JointPorts(n, 1, 0) != OnlyRight {
		t.Fatalf("one message at the right port: %d choices, %s", l.JointChoices(n, 1), l.JointPorts(n, 1, 0))
	}
	l.Send(n, 2, Left, msg{2})
	got := []PortSet{l.JointPorts(n, 1, 0), l.JointPorts(n, 1, 1), l.JointPorts(n, 1, 2)}
	if l.JointChoices(n, 1) != 3 || !slices.Equal(got, []PortSet{OnlyLeft, OnlyRight, BothPorts}) {
		t.Fatalf("messages at both ports: %d choices %v, want left, right, both", l.JointChoices(n, 1), got)
	}
	if l.Quiet() {
		t.Fatal("Quiet with messages in transit")
	}
}

// One message per step: the receives through the open ports are the
// channels' own choices, Left's first; a bag offers each distinct message.
func TestChoicesThroughOpenPorts(t *testing.T) {
	n := Net{Ring: Ring{N: 3, Bidirectional: true}, Sem: model.ChanSemantics{Kind: model.Bag}}
	c := NewChans[msg](n)
	c.Send(n, 0, Right, msg{5}) // into p1's left port
	c.Send(n, 0, Right, msg{3})
	c.Send(n, 0, Right, msg{5})
	c.Send(n, 2, Left, msg{4}) // into p1's right port
	if got := c.Choices(n, 1, BothPorts); got != 3 {
		t.Fatalf("bags [3 5 5] and [4]: %d choices, want 3", got)
	}
	if got := c.Choices(n, 1, OnlyRight); got != 1 {
		t.Fatalf("the right port alone: %d choices, want 1", got)
	}
	for k, want := range []string{"left 3", "left 5", "right 4"} {
		if p, m := c.Peek(n, 1, k, BothPorts); fmt.Sprint(p, " ", m) != want {
			t.Errorf("choice %d peeks %s %v, want %s", k, p, m, want)
		}
	}
	if p, m := c.Recv(n, 1, 1, BothPorts); p != Left || m.v != 5 || c.Inbox(n, 1, Left).String() != "[3 5]" {
		t.Fatalf("receiving choice 1 took %s %v and left %s", p, m, c.Inbox(n, 1, Left))
	}
}

// A bounded channel blocks the send that would overflow it, on every kind
// of ring.
func TestCapacityBlocksASend(t *testing.T) {
	for _, n := range []Net{
		{Ring: Ring{N: 3}, Sem: model.ChanSemantics{Cap: 1}},
		{Ring: Ring{N: 3, Bidirectional: true}, Sem: model.ChanSemantics{Kind: model.Bag, Cap: 1}},
	} {
		c := NewChans[msg](n)
		if !c.Send(n, 0, Right, msg{1}) || c.CanSend(n, 0, Right) || c.Send(n, 0, Right, msg{2}) {
			t.Fatalf("%+v: a second message went into a channel of capacity 1", n)
		}
		if c.Inbox(n, 1, Left).Len() != 1 {
			t.Fatalf("%+v: the blocked send changed the channel", n)
		}
	}
}

// On a unidirectional ring channel i is into process i, from its
// predecessor; a process sends through Right and receives through Left.
func TestOneWayRing(t *testing.T) {
	n := Net{Ring: Ring{N: 3}}
	c := NewChans[msg](n)
	if len(c) != 3 || n.Chan(2, Left) != 2 || n.Out(2, Right) != 0 {
		t.Fatalf("%d channels; p2 receives on %d and sends to %d", len(c), n.Chan(2, Left), n.Out(2, Right))
	}
	c.Send(n, 2, Right, msg{7})
	if !c.Waiting(n, 0, Left) || c.Choices(n, 0, n.Ports()) != 1 {
		t.Fatal("p2's message did not arrive at p0")
	}
	vars := c.Vars(n, nil, 0)
	views := c.Views(n)
	if len(vars) != 1 || vars[0] != (model.Var{Name: "p0.in", Value: "[7]"}) || views[0].From != 2 || views[0].Name != "p0.in" {
		t.Fatalf("vars %v, view %+v", vars, views[0])
	}
	f := n.Footprint(1, true)
	if fmt.Sprint(f.Recv, f.Send) != "[1] [2]" {
		t.Fatalf("p1's footprint receives from %v and sends to %v", f.Recv, f.Send)
	}
}

func TestChansEncodingRoundTrips(t *testing.T) {
	n := flippedNet(model.FullDuplex)
	l := NewChans[msg](n)
	l.Send(n, 0, Right, msg{300})
	l.Send(n, 0, Right, msg{4})
	l.Send(n, 2, Left, msg{5})
	enc := l.AppendTo(nil)
	m := NewChans[msg](n)
	d := model.NewDecoder(enc)
	m.DecodeFrom(&d, readMsg)
	if err := d.Finish(); err != nil || string(m.AppendTo(nil)) != string(enc) {
		t.Fatalf("decoded %v (%v)", m.LinkVars(n, nil), err)
	}
	var c Chans[msg]
	c.CopyFrom(l)
	c.Take(n, 1, Right)
	if !l.Waiting(n, 1, Right) || l.Inbox(n, 1, Right).Len() != 2 {
		t.Fatal("a copy shares storage with the original")
	}
}
