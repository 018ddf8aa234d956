package checker

import (
	"bytes"
	"context"
	"fmt"

	"github.com/ringcheck/mc/model"
)

// CheckCodec explores sys breadth-first, up to limit states (0: no limit),
// and checks on every state reached the contract of its hand-written
// Copy, Encode and Decode that the stores and checkpoints rely on
// (model.System): a state is what its encoding says, the checker keeping
// only encodings and decoding them into reused storage.
//
//   - Encode, Decode, Encode gives the same bytes, decoding into zeroed
//     storage and over another reachable state alike.
//   - Copy is faithful, into zeroed storage and over another state: the
//     copy encodes as the source does.
//   - Copy is independent of its source: stepping a copy in place (every
//     enabled action's Do) or decoding another state over it leaves the
//     source's encoding unchanged.
//   - The decoded state has the original's successors: every action is
//     enabled in both or in neither, with equal encodings after.
//
// It returns the states checked and whether the exploration was complete;
// the error names the first state that breaks the contract, by its label
// path from an initial state.
func CheckCodec[S any](ctx context.Context, sys *model.System[S], limit int) (states int, complete bool, err error) {
	c := codecCheck[S]{sys: sys, seen: map[string]bool{}}
	for i := range sys.Init {
		label := fmt.Sprintf("initial state %d", i)
		if err := c.push(&sys.Init[i], nil, label); err != nil {
			return 0, false, fmt.Errorf("%s: %s: %v", sys.Spec, label, err)
		}
	}
	for len(c.queue) > 0 {
		if limit > 0 && states >= limit {
			return states, false, nil
		}
		if err := ctx.Err(); err != nil {
			return states, false, err
		}
		s := c.queue[0]
		c.queue = c.queue[1:]
		if err := c.check(s); err != nil {
			return states, false, fmt.Errorf("%s: %s: %v", sys.Spec, s.path(), err)
		}
		s.s = *new(S) // only its path is needed now
		states++
	}
	return states, true, nil
}

// codecState is a state reached, with how: the state it was reached from
// and the action's label.
type codecState[S any] struct {
	s      S
	parent *codecState[S]
	label  string
}

// path is the labels from an initial state to q.
func (q *codecState[S]) path() string {
	if q.parent == nil {
		return q.label
	}
	return q.parent.path() + "; " + q.label
}

type codecCheck[S any] struct {
	sys   *model.System[S]
	seen  map[string]bool
	queue []*codecState[S]
	// over is the storage every state is also decoded into, holding the
	// state decoded before it, whose encoding prev is.
	over S
	prev []byte
}

// push queues a copy of s, reached from parent by label, unless its
// encoding was seen. The copy must encode as s does: else the states
// queued would be the codec's, not the system's.
func (c *codecCheck[S]) push(s *S, parent *codecState[S], label string) error {
	enc := c.sys.Encode(nil, s)
	if c.seen[string(enc)] {
		return nil
	}
	c.seen[string(enc)] = true
	q := &codecState[S]{parent: parent, label: label}
	c.sys.Copy(&q.s, s)
	if got := c.sys.Encode(nil, &q.s); !bytes.Equal(got, enc) {
		return fmt.Errorf("copied into a zero state, it encodes to %x, not %x", got, enc)
	}
	c.queue = append(c.queue, q)
	return nil
}

// check checks state q and queues its successors. A codec that loses part
// of the state may make a rule index past its end: the panic is reported
// as q's error.
func (c *codecCheck[S]) check(q *codecState[S]) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	sys, s := c.sys, &q.s
	enc := sys.Encode(nil, s)
	var fresh S
	if err := c.roundTrip(enc, &fresh, "into a zero state"); err != nil {
		return err
	}
	if err := c.roundTrip(enc, &c.over, "over the previous state"); err != nil {
		return err
	}
	if err := c.copyIndependent(s, enc); err != nil {
		return err
	}
	c.prev = enc
	return c.sameSuccessors(q, &fresh, enc)
}

// roundTrip decodes enc into dst and encodes it again.
func (c *codecCheck[S]) roundTrip(enc []byte, dst *S, how string) error {
	if err := c.sys.Decode(enc, dst); err != nil {
		return fmt.Errorf("decoding %s: %v", how, err)
	}
	if again := c.sys.Encode(nil, dst); !bytes.Equal(again, enc) {
		return fmt.Errorf("decoded %s, it encodes to %x, not %x", how, again, enc)
	}
	return nil
}

// copyIndependent copies s into zeroed storage and over the previous
// state, which must give s's encoding enc; then it steps copies of s in
// place and decodes another state over a copy, which must leave s's
// encoding enc.
func (c *codecCheck[S]) copyIndependent(s *S, enc []byte) error {
	sys := c.sys
	var cp S
	sys.Copy(&cp, s)
	if got := sys.Encode(nil, &cp); !bytes.Equal(got, enc) {
		return fmt.Errorf("copied into a zero state, it encodes to %x, not %x", got, enc)
	}
	if c.prev != nil {
		if err := sys.Decode(c.prev, &cp); err != nil {
			return fmt.Errorf("decoding the previous state: %v", err)
		}
		sys.Copy(&cp, s)
		if got := sys.Encode(nil, &cp); !bytes.Equal(got, enc) {
			return fmt.Errorf("copied over the previous state, it encodes to %x, not %x", got, enc)
		}
	}
	for a := range c.actions(s) {
		sys.Copy(&cp, s)
		sys.Rules[a.Rule].Do(&cp, a.Proc, a.Choice)
		if now := sys.Encode(nil, s); !bytes.Equal(now, enc) {
			return fmt.Errorf("stepping a copy by %s changed the original", sys.Label(s, a))
		}
	}
	if c.prev == nil {
		return nil
	}
	sys.Copy(&cp, s)
	if err := sys.Decode(c.prev, &cp); err != nil {
		return fmt.Errorf("decoding the previous state over a copy: %v", err)
	}
	if now := sys.Encode(nil, s); !bytes.Equal(now, enc) {
		return fmt.Errorf("decoding another state over a copy changed the original")
	}
	return nil
}

// sameSuccessors compares the successors of q and of d, q decoded, and
// queues q's.
func (c *codecCheck[S]) sameSuccessors(q *codecState[S], d *S, enc []byte) error {
	sys, s := c.sys, &q.s
	var next, dnext S
	for ri := range sys.Rules {
		r := &sys.Rules[ri]
		for p := 0; p < sys.Procs; p++ {
			if n, dn := r.ChoicesAt(s, p), r.ChoicesAt(d, p); n != dn {
				return fmt.Errorf("rule %s at p%d has %d choices, %d once decoded", r.Name, p, n, dn)
			}
			for k := 0; k < r.ChoicesAt(s, p); k++ {
				a := model.Action{Rule: ri, Proc: p, Choice: k}
				ok, dok := sys.Apply(s, a, &next), sys.Apply(d, a, &dnext)
				if ok != dok {
					return fmt.Errorf("%s is enabled %v, %v once decoded", sys.Label(s, a), ok, dok)
				}
				if !ok {
					continue
				}
				if x, y := sys.Encode(nil, &next), sys.Encode(nil, &dnext); !bytes.Equal(x, y) {
					return fmt.Errorf("%s leads to %x, to %x once decoded", sys.Label(s, a), x, y)
				}
				if err := c.push(&next, q, sys.Label(s, a)); err != nil {
					return fmt.Errorf("its successor by %s, %v", sys.Label(s, a), err)
				}
			}
		}
	}
	if now := sys.Encode(nil, s); !bytes.Equal(now, enc) {
		return fmt.Errorf("computing its successors changed it")
	}
	return nil
}

// actions are the actions enabled in s by their guards and choices (a
// send may still block).
func (c *codecCheck[S]) actions(s *S) func(yield func(model.Action) bool) {
	return func(yield func(model.Action) bool) {
		for ri := range c.sys.Rules {
			r := &c.sys.Rules[ri]
			for p := 0; p < c.sys.Procs; p++ {
				for k := range r.ChoicesAt(s, p) {
					if !yield(model.Action{Rule: ri, Proc: p, Choice: k}) {
						return
					}
				}
			}
		}
	}
}
