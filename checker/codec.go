package checker

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/mc/checker/internal/reach"
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
	c := &codecCheck[S]{sys: sys, succ: sys.Successors(0), dsucc: sys.Successors(0)}
	return reach.Walk[S]{Sys: sys, Limit: limit, Reached: c.reached}.Run(ctx, c.visit)
}

type codecCheck[S any] struct {
	sys *model.System[S]
	// from and label say how each state was reached, by its number (as
	// reach.Walk numbers them): from the state numbered from[n] by the
	// action labelled label[n]; from an initial state, from[n] < 0.
	from  []int
	label []string
	// cur is the state being checked, and succ and dsucc enumerate its
	// successors and those of its decoded copy.
	cur         *S
	succ, dsucc model.Successors[S]
	// over is the storage every state is also decoded into, holding the
	// state decoded before it, whose encoding prev is.
	over S
	prev []byte
}

// path is the labels from an initial state to state n.
func (c *codecCheck[S]) path(n int) string {
	var labels []string
	for ; n >= 0; n = c.from[n] {
		labels = append(labels, c.label[n])
	}
	slices.Reverse(labels)
	return strings.Join(labels, "; ")
}

// reached records how state n, s, was reached and checks the copy of it
// the walk keeps: it must encode as s does, else the states walked would
// be the codec's, not the system's.
func (c *codecCheck[S]) reached(n int, s, kept *S, from int, a model.Action) error {
	label := fmt.Sprintf("initial state %d", -1-from)
	if from >= 0 {
		label = c.sys.Label(c.cur, a)
	}
	c.from, c.label = append(c.from, from), append(c.label, label)
	if got, enc := c.sys.Encode(nil, kept), c.sys.Encode(nil, s); !bytes.Equal(got, enc) {
		err := fmt.Errorf("copied into a zero state, it encodes to %x, not %x", got, enc)
		if from < 0 {
			return fmt.Errorf("%s: %s: %v", c.sys.Spec, label, err)
		}
		return err
	}
	return nil
}

// visit checks state v and passes its successors on to the walk.
func (c *codecCheck[S]) visit(v *reach.Visit[S]) error {
	c.cur = v.State
	if err := c.check(v); err != nil {
		return fmt.Errorf("%s: %s: %v", c.sys.Spec, c.path(v.N), err)
	}
	return nil
}

// check checks state v and passes its successors on. A codec that loses
// part of the state may make a rule index past its end: the panic is
// reported as v's error.
func (c *codecCheck[S]) check(v *reach.Visit[S]) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	sys, s := c.sys, v.State
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
	return c.sameSuccessors(v, &fresh, enc)
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
	for c.succ.Of(s); c.succ.NextChoice(&cp); {
		if now := sys.Encode(nil, s); !bytes.Equal(now, enc) {
			return fmt.Errorf("stepping a copy by %s changed the original", sys.Label(s, c.succ.Action()))
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

// sameSuccessors compares the successors of v and of d, v decoded, group
// by group and choice by choice, and passes v's on to the walk.
func (c *codecCheck[S]) sameSuccessors(v *reach.Visit[S], d *S, enc []byte) error {
	sys, s := c.sys, v.State
	var next, dnext S
	for g := range len(sys.Rules) * sys.Procs {
		ri, p := g/sys.Procs, g%sys.Procs
		c.succ.OfGroup(s, ri, p)
		c.dsucc.OfGroup(d, ri, p)
		if n, dn := c.succ.Choices(), c.dsucc.Choices(); n != dn {
			return fmt.Errorf("rule %s at p%d has %d choices, %d once decoded", sys.Rules[ri].Name, p, n, dn)
		}
		for c.succ.NextChoice(&next) {
			c.dsucc.NextChoice(&dnext)
			a := c.succ.Action()
			ok, dok := c.succ.Enabled(), c.dsucc.Enabled()
			if ok != dok {
				return fmt.Errorf("%s is enabled %v, %v once decoded", sys.Label(s, a), ok, dok)
			}
			if !ok {
				continue
			}
			if x, y := sys.Encode(nil, &next), sys.Encode(nil, &dnext); !bytes.Equal(x, y) {
				return fmt.Errorf("%s leads to %x, to %x once decoded", sys.Label(s, a), x, y)
			}
			if err := v.Add(&next, a); err != nil {
				return fmt.Errorf("its successor by %s, %v", sys.Label(s, a), err)
			}
		}
	}
	if now := sys.Encode(nil, s); !bytes.Equal(now, enc) {
		return fmt.Errorf("computing its successors changed it")
	}
	return nil
}
