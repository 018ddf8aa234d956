package ring

import (
	"fmt"
	"mc/model"
	"slices"
	"testing"
)

// A ring of 3 where process 1 is flipped: its Right port leads to process 0.
func flippedRing() Links[msg] { return NewLinks[msg]([]bool{false, true, false}) }

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

// Half-duplex: one message per link, either way; full-duplex: two model.FIFO
// channels. Reference: ring package doc, "Links of a bidirectional ring".
func TestHalfDuplexLinkHoldsOneMessage(t *testing.T) {
	for _, mode := range []model.Duplex{model.HalfDuplex, model.FullDuplex} {
		l := flippedRing()
		full := mode == model.FullDuplex
		if !l.Send(mode, 0, Right, msg{7}) || !l.Waiting(1, Right) || l.Head(1, Right).v != 7 {
			t.Fatalf("%s: a send on a free link did not arrive at p1's right port", mode)
		}
		if l.CanSend(mode, 1, Right) != full || l.Send(mode, 1, Right, msg{8}) != full {
			t.Fatalf("%s: sending back over the busy link: allowed=%v, want %v", mode, !full, full)
		}
		if l.Send(mode, 0, Right, msg{9}) != full {
			t.Fatalf("%s: a second message the same way: allowed=%v, want %v", mode, !full, full)
		}
		if l.Send(mode, 0, Left, msg{1}) != true {
			t.Fatalf("%s: the other link is free", mode)
		}
		cw, ccw := l.OnLink(0)
		if want := map[bool]string{false: "[7] []", true: "[7 9] [8]"}[full]; fmt.Sprint(renderMsgs(cw), " ", renderMsgs(ccw)) != want {
			t.Fatalf("%s: link 0 holds %s %s, want %s", mode, renderMsgs(cw), renderMsgs(ccw), want)
		}
		if m := l.Take(1, Right); m.v != 7 || (mode == model.HalfDuplex && !l.CanSend(mode, 1, Right)) {
			t.Fatalf("%s: taking the message should free the half-duplex link", mode)
		}
	}
}

func TestRecvChoices(t *testing.T) {
	l := flippedRing()
	if l.RecvChoices(1) != 0 {
		t.Fatal("nothing waits, yet receives are offered")
	}
	l.Send(model.FullDuplex, 0, Right, msg{1})
	if l.RecvChoices(1) != 1 || l.RecvPorts(1, 0) != OnlyRight {
		t.Fatalf("one message at the right port: %d choices, %s", l.RecvChoices(1), l.RecvPorts(1, 0))
	}
	l.Send(model.FullDuplex, 2, Left, msg{2})
	got := []PortSet{l.RecvPorts(1, 0), l.RecvPorts(1, 1), l.RecvPorts(1, 2)}
	if l.RecvChoices(1) != 3 || !slices.Equal(got, []PortSet{OnlyLeft, OnlyRight, BothPorts}) {
		t.Fatalf("messages at both ports: %d choices %v, want left, right, both", l.RecvChoices(1), got)
	}
	if l.Quiet() {
		t.Fatal("Quiet with messages in transit")
	}
}

func TestLinksEncodingRoundTrips(t *testing.T) {
	l := flippedRing()
	l.Send(model.FullDuplex, 0, Right, msg{300})
	l.Send(model.FullDuplex, 0, Right, msg{4})
	l.Send(model.FullDuplex, 2, Left, msg{5})
	enc := l.AppendTo(nil)
	var m Links[msg]
	d := model.NewDecoder(enc)
	m.DecodeFrom(&d, 3, readMsg)
	if err := d.Finish(); err != nil || string(m.AppendTo(nil)) != string(enc) || model.FormatOrientation(m.Flipped) != "010" {
		t.Fatalf("decoded %v (%v)", m.AppendVars(nil), err)
	}
	var c Links[msg]
	c.CopyFrom(&l)
	c.Take(1, Right)
	if !l.Waiting(1, Right) || l.Inbox(1, Right).Len() != 2 {
		t.Fatal("a copy shares storage with the original")
	}
}
