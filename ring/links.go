package ring

import (
	"fmt"

	"mc/model"
)

// Links is the part of a bidirectional ring's state that its links hold:
// the processes' local orientations, fixed for a run but part of the state
// because one system may start from several orientation assignments, and
// the messages in transit, kept per receiving process and port. A message
// stays on its link until the receiver takes it, so "in transit" and
// "waiting, unprocessed, in the receiver's queue" are one and the same (the
// package doc says why).
type Links[M Message[M]] struct {
	// Flipped[i]: process i's Right port leads counter-clockwise (Ring).
	Flipped []bool
	in      []Chan[M] // in[2i+p]: messages that arrived over i's port p
}

// NewLinks returns empty links for a ring whose orientation is flipped.
func NewLinks[M Message[M]](flipped []bool) Links[M] {
	return Links[M]{Flipped: append([]bool(nil), flipped...), in: make([]Chan[M], 2*len(flipped))}
}

// Ring is the topology with these links' orientation.
func (l *Links[M]) Ring() Ring {
	return Ring{N: len(l.Flipped), Bidirectional: true, Flipped: l.Flipped}
}

// Inbox is the queue of messages that arrived over i's port p and wait to
// be taken. It must not be modified.
func (l *Links[M]) Inbox(i int, p Port) *Chan[M] { return &l.in[2*i+int(p)] }

// Waiting reports whether a message waits at i's port p.
func (l *Links[M]) Waiting(i int, p Port) bool { return l.in[2*i+int(p)].Len() > 0 }

// Head is the oldest message waiting at i's port p.
func (l *Links[M]) Head(i int, p Port) M { return l.in[2*i+int(p)].msgs[0] }

// Take removes and returns the oldest message waiting at i's port p.
func (l *Links[M]) Take(i int, p Port) M { return l.in[2*i+int(p)].Recv(model.ChanSemantics{}, 0) }

// CanSend reports whether a send over i's port p would go through now: on
// a half-duplex link only when the link is empty in both directions.
func (l *Links[M]) CanSend(mode model.Duplex, i int, p Port) bool {
	if mode != model.HalfDuplex {
		return true
	}
	j, q := l.Ring().Peer(i, p)
	return l.in[2*i+int(p)].Len() == 0 && l.in[2*j+int(q)].Len() == 0
}

// Send puts m on the link at i's port p, towards the neighbour. It returns
// false, changing nothing, when a half-duplex link is busy; the step that
// would send is then not taken (model.Rule.Do).
func (l *Links[M]) Send(mode model.Duplex, i int, p Port, m M) bool {
	if !l.CanSend(mode, i, p) {
		return false
	}
	j, q := l.Ring().Peer(i, p)
	l.in[2*j+int(q)].Send(model.ChanSemantics{}, m)
	return true
}

// RecvChoices is how many different receive steps process i can take: none
// when no message waits; one when messages wait at one port; three when
// they wait at both (the left one alone, the right one alone, or both
// together).
func (l *Links[M]) RecvChoices(i int) int {
	switch l.waiting(i) {
	case 0:
		return 0
	case BothPorts:
		return 3
	}
	return 1
}

// RecvPorts is the set of ports receive choice k of process i takes from.
func (l *Links[M]) RecvPorts(i, k int) PortSet {
	w := l.waiting(i)
	if w != BothPorts {
		return w
	}
	return [3]PortSet{OnlyLeft, OnlyRight, BothPorts}[k]
}

func (l *Links[M]) waiting(i int) PortSet {
	var s PortSet
	if l.Waiting(i, Left) {
		s |= OnlyLeft
	}
	if l.Waiting(i, Right) {
		s |= OnlyRight
	}
	return s
}

// Quiet holds when no message is in transit.
func (l *Links[M]) Quiet() bool {
	for i := range l.in {
		if l.in[i].Len() > 0 {
			return false
		}
	}
	return true
}

// OnLink returns the messages in transit on link k (which joins process k
// to k+1), clockwise first. The slices must not be modified.
func (l *Links[M]) OnLink(k int) (clockwise, counter []M) {
	r := l.Ring()
	j := r.Succ(k)
	return l.in[2*j+int(r.PortOn(j, false))].msgs, l.in[2*k+int(r.PortOn(k, true))].msgs
}

// CopyFrom makes l a copy of o, reusing l's storage.
func (l *Links[M]) CopyFrom(o *Links[M]) {
	l.Flipped = append(l.Flipped[:0], o.Flipped...)
	if len(l.in) != len(o.in) {
		l.in = make([]Chan[M], len(o.in))
	}
	for i := range o.in {
		l.in[i].CopyFrom(&o.in[i])
	}
}

// AppendTo writes the canonical encoding: the orientation bits, then every
// inbox.
func (l *Links[M]) AppendTo(buf []byte) []byte {
	for _, f := range l.Flipped {
		buf = model.AppendBool(buf, f)
	}
	for i := range l.in {
		buf = l.in[i].AppendTo(buf)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote for a ring of n, using read for each
// message.
func (l *Links[M]) DecodeFrom(d *model.Decoder, n int, read func(d *model.Decoder) M) {
	if len(l.Flipped) != n || len(l.in) != 2*n {
		*l = Links[M]{Flipped: make([]bool, n), in: make([]Chan[M], 2*n)}
	}
	for i := range l.Flipped {
		l.Flipped[i] = d.Bool()
	}
	for i := range l.in {
		l.in[i].DecodeFrom(d, read)
	}
}

// AppendVars appends, for a person reading a trace, the orientation and
// the messages in transit on every link in each direction ("p0→p1").
func (l *Links[M]) AppendVars(out []model.Var) []model.Var {
	out = append(out, model.Var{Name: "orientation", Value: model.FormatOrientation(l.Flipped)})
	r := l.Ring()
	for k := range l.Flipped {
		cw, ccw := l.OnLink(k)
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

// LinkViews pictures the links for a model.View: one model.LinkView per direction of
// every link, named as AppendVars names it, with the messages in transit.
func (l *Links[M]) LinkViews() []model.LinkView {
	r := l.Ring()
	out := make([]model.LinkView, 0, 2*len(l.Flipped))
	for i := range l.Flipped {
		for _, p := range []Port{Left, Right} {
			j, _ := r.Peer(i, p)
			c := &l.in[2*i+int(p)]
			msgs := make([]string, 0, c.Len())
			for _, m := range c.msgs {
				msgs = append(msgs, m.String())
			}
			out = append(out, model.LinkView{From: j, To: i, Name: fmt.Sprintf("p%d→p%d", j, i), Msgs: msgs})
		}
	}
	return out
}

func renderMsgs[M Message[M]](ms []M) string {
	c := Chan[M]{msgs: ms}
	return c.String()
}
