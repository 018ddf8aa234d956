package ring

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/model"
)

type msg struct{ v int }

func (m msg) Compare(o msg) int        { return m.v - o.v }
func (m msg) AppendTo(b []byte) []byte { return model.AppendUint(b, uint64(m.v)) }
func (m msg) String() string           { return fmt.Sprint(m.v) }
func readMsg(d *model.Decoder) msg     { return msg{d.Int()} }
func sendAll(c *Chan[msg], l model.ChanSemantics, vs ...int) {
	for _, v := range vs {
		c.Send(l, msg{v})
	}
}

func TestFIFOKeepsSendingOrder(t *testing.T) {
	var c Chan[msg]
	l := model.ChanSemantics{Kind: model.FIFO}
	sendAll(&c, l, 3, 1, 2)
	if got := c.String(); got != "[3 1 2]" {
		t.Fatalf("fifo holds %s, want [3 1 2]", got)
	}
	if c.Choices(l) != 1 {
		t.Fatalf("fifo offers %d receives, want 1 (the head)", c.Choices(l))
	}
	if m := c.Recv(l, 0); m.v != 3 {
		t.Fatalf("fifo delivered %d first, want 3", m.v)
	}
}

func TestBagIsCanonicalAndOffersEachDistinctMessage(t *testing.T) {
	l := model.ChanSemantics{Kind: model.Bag}
	var a, b Chan[msg]
	sendAll(&a, l, 3, 1, 3, 2)
	sendAll(&b, l, 2, 3, 3, 1)
	if string(a.AppendTo(nil)) != string(b.AppendTo(nil)) {
		t.Fatalf("bags with the same messages encode differently: %s vs %s", &a, &b)
	}
	if a.Choices(l) != 3 {
		t.Fatalf("bag [1 2 3 3] offers %d receives, want 3 distinct", a.Choices(l))
	}
	if m := a.Peek(l, 2); m.v != 3 {
		t.Fatalf("choice 2 peeks %d, want 3", m.v)
	}
	a.Recv(l, 2)
	if got := a.String(); got != "[1 2 3]" {
		t.Fatalf("after receiving one 3 the bag holds %s", got)
	}
}

func TestBoundedChannelBlocksWhenFull(t *testing.T) {
	var c Chan[msg]
	l := model.ChanSemantics{Kind: model.FIFO, Cap: 2}
	if !c.Send(l, msg{1}) || !c.Send(l, msg{2}) {
		t.Fatal("sends within capacity blocked")
	}
	if c.Send(l, msg{3}) {
		t.Fatal("a third send on a channel of capacity 2 went through")
	}
	if c.Len() != 2 {
		t.Fatalf("blocked send changed the channel: %s", &c)
	}
}

func TestChanEncodingRoundTrips(t *testing.T) {
	var c, d Chan[msg]
	sendAll(&c, model.ChanSemantics{}, 300, 0, 7)
	enc := c.AppendTo(nil)
	dec := model.NewDecoder(enc)
	d.DecodeFrom(&dec, readMsg)
	if err := dec.Finish(); err != nil || d.String() != c.String() {
		t.Fatalf("decoded %s (%v), want %s", &d, err, &c)
	}
	short := model.NewDecoder(enc[:len(enc)-1])
	d.DecodeFrom(&short, readMsg)
	if short.Finish() == nil {
		t.Fatal("a truncated encoding decoded without error")
	}
}

type tag uint8

func (k tag) String() string { return [...]string{"wakeup", "elect"}[k] }

// Tagged messages print bare without an id, sort by kind then id in a bag,
// and decode to what was encoded.
func TestTaggedMessages(t *testing.T) {
	var c Chan[Tagged[tag]]
	l := model.ChanSemantics{Kind: model.Bag}
	for _, m := range []Tagged[tag]{{Kind: 1, ID: 5}, {Kind: 0}, {Kind: 1, ID: 2}} {
		c.Send(l, m)
	}
	if got := c.String(); got != "[⟨wakeup⟩ ⟨elect 2⟩ ⟨elect 5⟩]" {
		t.Fatalf("bag holds %s", got)
	}
	var d Chan[Tagged[tag]]
	dec := model.NewDecoder(c.AppendTo(nil))
	d.DecodeFrom(&dec, ReadTagged[tag])
	if err := dec.Finish(); err != nil || d.String() != c.String() {
		t.Fatalf("decoded %s (%v), want %s", d.String(), err, c.String())
	}
}
