package ring

import (
	"github.com/ringcheck/mc/model"
	"strings"
)

// Message is what a channel carries. Compare gives the total order in which
// a bag keeps its messages, so that a bag has one canonical encoding;
// AppendTo writes a message's canonical bytes.
type Message[M any] interface {
	comparable
	Compare(other M) int
	AppendTo(buf []byte) []byte
	String() string
}

// Chan is one directed channel: the messages sent on it and not yet received.
// A FIFO channel keeps them in sending order; a bag keeps them sorted by
// Compare, which is its canonical form.
type Chan[M Message[M]] struct {
	msgs []M
}

// Len is the number of pending messages.
func (c *Chan[M]) Len() int { return len(c.msgs) }

// Messages returns the pending messages (FIFO: oldest first; bag: sorted).
// The slice must not be modified.
func (c *Chan[M]) Messages() []M { return c.msgs }

// Send adds m. It returns false, changing nothing, if the channel is full.
func (c *Chan[M]) Send(l model.ChanSemantics, m M) bool {
	if l.Cap > 0 && len(c.msgs) >= l.Cap {
		return false
	}
	if l.Kind == model.FIFO {
		c.msgs = append(c.msgs, m)
		return true
	}
	i := len(c.msgs)
	for i > 0 && c.msgs[i-1].Compare(m) > 0 {
		i--
	}
	var zero M
	c.msgs = append(c.msgs, zero)
	copy(c.msgs[i+1:], c.msgs[i:])
	c.msgs[i] = m
	return true
}

// Choices is how many different receives the channel offers: none when
// empty, the head for a FIFO channel, and one per distinct pending message
// for a bag (receiving either of two equal messages leads to the same state).
func (c *Chan[M]) Choices(l model.ChanSemantics) int {
	if len(c.msgs) == 0 {
		return 0
	}
	if l.Kind == model.FIFO {
		return 1
	}
	n := 1
	for i := 1; i < len(c.msgs); i++ {
		if c.msgs[i] != c.msgs[i-1] {
			n++
		}
	}
	return n
}

// index returns the position of receive choice k.
func (c *Chan[M]) index(l model.ChanSemantics, k int) int {
	if l.Kind == model.FIFO || k == 0 {
		return 0
	}
	for i := 1; i < len(c.msgs); i++ {
		if c.msgs[i] != c.msgs[i-1] {
			k--
			if k == 0 {
				return i
			}
		}
	}
	panic("model: receive choice out of range")
}

// Peek returns the message that receive choice k would take.
func (c *Chan[M]) Peek(l model.ChanSemantics, k int) M { return c.msgs[c.index(l, k)] }

// Recv removes and returns the message of receive choice k.
func (c *Chan[M]) Recv(l model.ChanSemantics, k int) M {
	i := c.index(l, k)
	m := c.msgs[i]
	c.msgs = append(c.msgs[:i], c.msgs[i+1:]...)
	return m
}

// Drop removes and returns the message at position i of Messages(): for
// actions that take a particular message rather than a receive choice, such
// as an environment losing a message in transit.
func (c *Chan[M]) Drop(i int) M {
	m := c.msgs[i]
	c.msgs = append(c.msgs[:i], c.msgs[i+1:]...)
	return m
}

// CopyFrom makes c a copy of o, reusing c's storage.
func (c *Chan[M]) CopyFrom(o *Chan[M]) { c.msgs = append(c.msgs[:0], o.msgs...) }

// AppendTo writes the channel's canonical encoding: its length, then each
// message in order.
func (c *Chan[M]) AppendTo(buf []byte) []byte {
	buf = model.AppendUint(buf, uint64(len(c.msgs)))
	for _, m := range c.msgs {
		buf = m.AppendTo(buf)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote, using read for each message.
func (c *Chan[M]) DecodeFrom(d *model.Decoder, read func(d *model.Decoder) M) {
	n := int(d.Uint())
	if d.Err() != nil {
		return
	}
	c.msgs = c.msgs[:0]
	for i := 0; i < n && d.Err() == nil; i++ {
		c.msgs = append(c.msgs, read(d))
	}
}

// String renders the channel as "[⟨elect 5⟩ ⟨done 5⟩]".
func (c *Chan[M]) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, m := range c.msgs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	b.WriteByte(']')
	return b.String()
}

// inTransit calls visit for each message of the channel in View's order,
// as channel ch (model.System.InTransit), encoding them into buf, which it
// returns for reuse.
func (c *Chan[M]) inTransit(ch int, buf []byte, visit func(ch int, kind string, msg []byte)) []byte {
	for _, m := range c.msgs {
		buf = m.AppendTo(buf[:0])
		visit(ch, model.KindOf(m), buf)
	}
	return buf
}

// view pictures the channel for a model.View as the channel from process
// from to process to, named name.
func (c *Chan[M]) view(from, to int, name string) model.ChanView {
	msgs, kinds := make([]string, 0, len(c.msgs)), make([]string, 0, len(c.msgs))
	for _, m := range c.msgs {
		msgs, kinds = append(msgs, m.String()), append(kinds, model.KindOf(m))
	}
	return model.ChanView{From: from, To: to, Name: name, Msgs: msgs, Kinds: kinds}
}
