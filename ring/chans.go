package ring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Chans is the part of a ring protocol's state that its channels hold: the
// messages in transit on every link, kept per receiving process and port
// (c[n.Chan(i, p)], Net says how they are numbered). A message stays on
// its link until the receiver takes it, so "in transit" and "waiting,
// unprocessed, in the receiver's queue" are one and the same (the package
// doc says why). Every method takes the system's Net, which Chans does not
// keep: it is fixed, and a state holds only what changes.
type Chans[M Message[M]] []Chan[M]

// NewChans returns the empty channels of n.
func NewChans[M Message[M]](n Net) Chans[M] { return make(Chans[M], n.Count()) }

// Inbox is the channel into i's port p: the messages that arrived there
// and wait to be taken.
func (c Chans[M]) Inbox(n Net, i int, p Port) *Chan[M] { return &c[n.Chan(i, p)] }

// Waiting reports whether a message waits at i's port p.
func (c Chans[M]) Waiting(n Net, i int, p Port) bool { return c[n.Chan(i, p)].Len() > 0 }

// Head is the first message waiting at i's port p: the oldest (FIFO) or
// the smallest (bag).
func (c Chans[M]) Head(n Net, i int, p Port) M { return c[n.Chan(i, p)].Peek(n.Sem, 0) }

// Take removes and returns Head.
func (c Chans[M]) Take(n Net, i int, p Port) M { return c[n.Chan(i, p)].Recv(n.Sem, 0) }

// CanSend reports whether a send over i's port p would go through now: not
// into a full bounded channel, and on a half-duplex link only when the link
// is empty in both directions.
func (c Chans[M]) CanSend(n Net, i int, p Port) bool {
	out := n.Out(i, p)
	if n.Sem.Cap > 0 && c[out].Len() >= n.Sem.Cap {
		return false
	}
	if !n.Ring.Bidirectional || n.Duplex != model.HalfDuplex {
		return true
	}
	return c[out].Len() == 0 && c[n.Chan(i, p)].Len() == 0
}

// Send puts m on the link at i's port p, towards the neighbour. It returns
// false, changing nothing, when the send cannot go through (CanSend); the
// step that would send is then not taken (model.Rule.Do).
func (c Chans[M]) Send(n Net, i int, p Port, m M) bool {
	if !c.CanSend(n, i, p) {
		return false
	}
	c[n.Out(i, p)].Send(n.Sem, m)
	return true
}

// Choices is how many receives of one message each process i can take
// through the ports in open: the head of each FIFO channel, or each
// distinct message of each bag, Left's first.
func (c Chans[M]) Choices(n Net, i int, open PortSet) int {
	k := 0
	for p := Left; p <= Right; p++ {
		if open.Has(p) {
			k += c[n.Chan(i, p)].Choices(n.Sem)
		}
	}
	return k
}

// locate turns receive choice k of i into a port and a choice on the
// channel into it.
func (c Chans[M]) locate(n Net, i, k int, open PortSet) (Port, int) {
	if open.Has(Left) {
		if l := c[n.Chan(i, Left)].Choices(n.Sem); k >= l {
			k -= l
		} else {
			return Left, k
		}
	}
	return Right, k
}

// Peek returns the port and the message of receive choice k of i.
func (c Chans[M]) Peek(n Net, i, k int, open PortSet) (Port, M) {
	p, k := c.locate(n, i, k, open)
	return p, c[n.Chan(i, p)].Peek(n.Sem, k)
}

// Recv removes receive choice k of i and returns the port it came through
// and the message.
func (c Chans[M]) Recv(n Net, i, k int, open PortSet) (Port, M) {
	p, k := c.locate(n, i, k, open)
	return p, c[n.Chan(i, p)].Recv(n.Sem, k)
}

// JointChoices is how many different receive steps process i can take when
// one step may take the messages waiting at both ports at once, seed 000's
// collision: none when no message waits; one when messages wait at one
// port; three when they wait at both (the left one alone, the right one
// alone, or both together). Each takes the oldest message of a port.
func (c Chans[M]) JointChoices(n Net, i int) int {
	switch c.waiting(n, i) {
	case 0:
		return 0
	case BothPorts:
		return 3
	}
	return 1
}

// JointPorts is the set of ports joint receive choice k of process i takes
// from.
func (c Chans[M]) JointPorts(n Net, i, k int) PortSet {
	w := c.waiting(n, i)
	if w != BothPorts {
		return w
	}
	return [3]PortSet{OnlyLeft, OnlyRight, BothPorts}[k]
}

func (c Chans[M]) waiting(n Net, i int) PortSet {
	var s PortSet
	if c.Waiting(n, i, Left) {
		s |= OnlyLeft
	}
	if c.Waiting(n, i, Right) {
		s |= OnlyRight
	}
	return s
}

// Quiet holds when no message is in transit.
func (c Chans[M]) Quiet() bool {
	for i := range c {
		if c[i].Len() > 0 {
			return false
		}
	}
	return true
}

// OnLink returns the messages in transit on link k of a bidirectional ring
// (which joins process k to k+1), clockwise first. The slices must not be
// modified.
func (c Chans[M]) OnLink(n Net, k int) (clockwise, counter []M) {
	r := n.Ring
	j := r.Succ(k)
	return c[n.Chan(j, r.PortOn(j, false))].msgs, c[n.Chan(k, r.PortOn(k, true))].msgs
}

// CopyFrom makes c a copy of src, reusing c's storage.
func (c *Chans[M]) CopyFrom(src Chans[M]) {
	if len(*c) != len(src) {
		*c = make(Chans[M], len(src))
	}
	for i := range src {
		(*c)[i].CopyFrom(&src[i])
	}
}

// AppendTo writes every channel's canonical encoding, in channel order.
func (c Chans[M]) AppendTo(buf []byte) []byte {
	for i := range c {
		buf = c[i].AppendTo(buf)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote into c, which has the system's
// number of channels (NewChans), using read for each message.
func (c Chans[M]) DecodeFrom(d *model.Decoder, read func(d *model.Decoder) M) {
	for i := range c {
		c[i].DecodeFrom(d, read)
	}
}

// InboxName names the channel into i's port p as traces do: "p2.in" on a
// unidirectional ring, "p2.in.left" on a bidirectional one.
func (n Net) InboxName(i int, p Port) string {
	if n.Ring.Bidirectional {
		return fmt.Sprintf("p%d.in.%s", i, p)
	}
	return fmt.Sprintf("p%d.in", i)
}

// Vars appends, for a person reading a trace, every channel into process
// i, named by InboxName.
func (c Chans[M]) Vars(n Net, out []model.Var, i int) []model.Var {
	for p := Left; p <= Right; p++ {
		if n.Ports().Has(p) {
			out = append(out, model.Var{Name: n.InboxName(i, p), Value: c[n.Chan(i, p)].String()})
		}
	}
	return out
}

// RecvLabel renders receive choice k of i (Peek) as a trace labels the
// step: "recv p2 ⟨elect 5⟩", and on a bidirectional ring the port it
// comes through, "recv p2 ⟨probe 5 …⟩ from left".
func (c Chans[M]) RecvLabel(n Net, i, k int, open PortSet) string {
	port, m := c.Peek(n, i, k, open)
	if n.Ring.Bidirectional {
		return fmt.Sprintf("recv p%d %v from %s", i, m, port)
	}
	return fmt.Sprintf("recv p%d %v", i, m)
}

// InboxVars is Vars for code that knows the number of processes but not
// the Net (the codecs cmd/mc-gen derives): a bidirectional ring has two
// channels per process, a unidirectional one one.
func (c Chans[M]) InboxVars(out []model.Var, procs, i int) []model.Var {
	return c.Vars(Net{Ring: Ring{N: procs, Bidirectional: len(c) == 2*procs}}, out, i)
}

// Views pictures the channels for a model.View: every channel into every
// process, from the neighbour at its far end, named by InboxName.
func (c Chans[M]) Views(n Net) []model.ChanView {
	out := make([]model.ChanView, 0, len(c))
	for i := 0; i < n.Ring.N; i++ {
		for p := Left; p <= Right; p++ {
			if n.Ports().Has(p) {
				j, _ := n.Ring.Peer(i, p)
				out = append(out, c[n.Chan(i, p)].view(j, i, n.InboxName(i, p)))
			}
		}
	}
	return out
}

// InTransit visits the messages Views shows, in its order, without
// formatting them (model.System.InTransit).
func (c Chans[M]) InTransit(n Net, visit func(ch int, kind string, msg []byte)) {
	var buf []byte
	ch := 0
	for i := 0; i < n.Ring.N; i++ {
		for p := Left; p <= Right; p++ {
			if n.Ports().Has(p) {
				buf = c[n.Chan(i, p)].inTransit(ch, buf, visit)
				ch++
			}
		}
	}
}

// LinkVars appends, for a person reading a trace of a bidirectional ring
// without a common orientation, the orientation and the messages in
// transit on every link in each direction ("p0→p1").
func (c Chans[M]) LinkVars(n Net, out []model.Var) []model.Var {
	r := n.Ring
	out = append(out, model.Var{Name: "orientation", Value: model.FormatOrientation(r.Flipped)})
	for k := 0; k < r.N; k++ {
		cw, ccw := c.OnLink(n, k)
		j := r.Succ(k)
		via := ""
		if r.N == 2 {
			via = fmt.Sprintf(" (link %d)", k)
		}
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d→p%d%s", k, j, via), Value: renderMsgs(cw)},
			model.Var{Name: fmt.Sprintf("p%d→p%d%s", j, k, via), Value: renderMsgs(ccw)})
	}
	return out
}

// LinkViews pictures the channels of a bidirectional ring for a model.View
// as LinkVars names them: one per direction of every link.
func (c Chans[M]) LinkViews(n Net) []model.ChanView {
	out := make([]model.ChanView, 0, len(c))
	for i := 0; i < n.Ring.N; i++ {
		for _, p := range []Port{Left, Right} {
			j, _ := n.Ring.Peer(i, p)
			out = append(out, c[n.Chan(i, p)].view(j, i, fmt.Sprintf("p%d→p%d", j, i)))
		}
	}
	return out
}

// LinkInTransit visits the messages LinkViews shows, in its order, without
// formatting them (model.System.InTransit).
func (c Chans[M]) LinkInTransit(n Net, visit func(ch int, kind string, msg []byte)) {
	var buf []byte
	for i := 0; i < n.Ring.N; i++ {
		for k, p := range []Port{Left, Right} {
			buf = c[n.Chan(i, p)].inTransit(2*i+k, buf, visit)
		}
	}
}

func renderMsgs[M Message[M]](ms []M) string {
	c := Chan[M]{msgs: ms}
	return c.String()
}
