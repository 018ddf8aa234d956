package por

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/ringcheck/mc/checker/internal/reach"
	"github.com/ringcheck/mc/model"
)

// CheckFootprints checks, on every reachable state of sys, the facts that
// partial-order reduction derives from the rules' footprints and the
// properties' Reads (see the package doc), so that a wrong footprint fails
// a test instead of silently hiding states:
//
//   - independence: two actions of groups that the footprints say are
//     independent, both enabled, neither disable the other and commute;
//   - persistence: an action of a group that may not affect group g (not
//     in g's closure) leaves g's actions as they were: the same enabled
//     actions, told apart by their labels, and none newly enabled;
//   - readiness: a rule enabled at p is Ready at p (model.Rule.Ready);
//   - invisibility: an action that leaves the properties' variables
//     unchanged still does so after an independent action;
//   - situations: each property's situation reads only what its Reads
//     declares (situation.go).
//
// It holds every state in memory and tries every pair of actions, so it is
// meant for the small instances of tests, like checker.CheckErasure.
func CheckFootprints[S any](ctx context.Context, sys *model.System[S]) error {
	r, note, err := New(sys)
	if err != nil {
		return err
	}
	if r == nil {
		return fmt.Errorf("spec %s: reduction %s", sys.Spec, note)
	}
	c := &footprintCheck[S]{sys: sys, r: r, readers: Reads(sys)}
	states, err := reachable(ctx, sys)
	if err != nil {
		return err
	}
	if err := checkSituations(sys, states); err != nil {
		return fmt.Errorf("spec %s: %v", sys.Spec, err)
	}
	for i := range states {
		if err := c.state(&states[i]); err != nil {
			return fmt.Errorf("spec %s, in state %v: %v", sys.Spec, sys.Vars(&states[i]), err)
		}
	}
	return nil
}

type footprintCheck[S any] struct {
	sys     *model.System[S]
	r       *Reducer
	readers []func(buf []byte, s *S) []byte
}

// move is one enabled action, told apart from the group's others by its
// label, and the state it leads to.
type move[S any] struct {
	label string
	next  S
}

// moves returns the enabled actions of every group in s, and which groups
// had a send blocked.
func (c *footprintCheck[S]) moves(s *S) ([][]move[S], []bool) {
	sys := c.sys
	out, blocked := make([][]move[S], c.r.groups), make([]bool, c.r.groups)
	succ := sys.Successors(0)
	for g := range c.r.groups {
		next := new(S) // each move keeps its own
		for succ.OfGroup(s, g/sys.Procs, g%sys.Procs); succ.Next(next); next = new(S) {
			out[g] = append(out[g], move[S]{label: sys.Label(s, succ.Action()), next: *next})
		}
		blocked[g] = succ.Blocked()
	}
	return out, blocked
}

// idle reports, per group, whether its rule is not Ready in s; it fails
// if a rule is enabled but not Ready, which its Ready promises cannot be.
func (c *footprintCheck[S]) idle(s *S) ([]bool, error) {
	sys := c.sys
	out := make([]bool, c.r.groups)
	for ri, r := range sys.Rules {
		for p := 0; p < sys.Procs; p++ {
			if r.Ready == nil || r.Ready(s, p) {
				continue
			}
			if r.Guard(s, p) {
				return nil, fmt.Errorf("rule %s is enabled at p%d but not Ready", r.Name, p)
			}
			out[ri*sys.Procs+p] = true
		}
	}
	return out, nil
}

func (c *footprintCheck[S]) state(s *S) error {
	ms, blocked := c.moves(s)
	idle, err := c.idle(s)
	if err != nil {
		return err
	}
	after := make([][][][]move[S], c.r.groups) // after[h][j]: the moves from h's j-th successor
	for h := range ms {
		for j := range ms[h] {
			m, _ := c.moves(&ms[h][j].next)
			after[h] = append(after[h], m)
		}
	}
	for g := range ms {
		for h := range ms {
			if h == g {
				continue
			}
			if !c.mayAffect(s, g, h, len(ms[g]) > 0, blocked[g], idle[g]) {
				for j, b := range ms[h] {
					if got, want := labels(after[h][j][g]), labels(ms[g]); !slices.Equal(got, want) {
						return fmt.Errorf("%s changes what rule %s can do at p%d from %v to %v, though the footprints say it cannot",
							b.label, c.sys.Rules[g/c.sys.Procs].Name, g%c.sys.Procs, want, got)
					}
				}
			}
			if slices.Contains(c.r.always[g], int32(h)) || slices.Contains(c.r.always[h], int32(g)) {
				continue
			}
			for i, a := range ms[g] {
				for j, b := range ms[h] {
					if err := c.commute(s, ms, after, g, i, h, j); err != nil {
						return fmt.Errorf("%s and %s: %v", a.label, b.label, err)
					}
				}
			}
		}
	}
	return nil
}

// mayAffect reports whether group h may change group g's actions according
// to the closure rules of the reducer.
func (c *footprintCheck[S]) mayAffect(s *S, g, h int, enabled, blocked, idle bool) bool {
	r := c.r
	empty := func(ch int) bool { return c.sys.ChanLen(s, ch) == 0 }
	waits := !r.waitFor(g, enabled, idle, empty, func(hs []int32) bool { return !slices.Contains(hs, int32(h)) })
	return slices.Contains(r.always[g], int32(h)) || waits ||
		(blocked && slices.Contains(r.receivers[g], int32(h)))
}

// commute checks that action i of group g and action j of group h, both
// enabled in s, stay enabled after each other and reach the same state, and
// that if the first leaves the properties' variables unchanged it still does
// after the second.
func (c *footprintCheck[S]) commute(s *S, ms [][]move[S], after [][][][]move[S], g, i, h, j int) error {
	sys := c.sys
	a, b := ms[g][i], ms[h][j]
	ab := find(after[g][i][h], b.label)
	ba := find(after[h][j][g], a.label)
	switch {
	case ab == nil:
		return fmt.Errorf("the first disables the second")
	case ba == nil:
		return fmt.Errorf("the second disables the first")
	case !bytes.Equal(sys.Encode(nil, &ab.next), sys.Encode(nil, &ba.next)):
		return fmt.Errorf("they do not commute")
	}
	if bytes.Equal(c.reads(s), c.reads(&a.next)) && !bytes.Equal(c.reads(&b.next), c.reads(&ba.next)) {
		return fmt.Errorf("the first is invisible here but visible after the second")
	}
	return nil
}

func (c *footprintCheck[S]) reads(s *S) []byte {
	var buf []byte
	for _, f := range c.readers {
		buf = f(buf, s)
	}
	return buf
}

func labels[S any](ms []move[S]) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.label
	}
	slices.Sort(out)
	return out
}

func find[S any](ms []move[S], label string) *move[S] {
	for i := range ms {
		if ms[i].label == label {
			return &ms[i]
		}
	}
	return nil
}

// reachable returns every reachable state of sys, breadth-first, telling
// states apart by their full encodings (reach.Walk).
func reachable[S any](ctx context.Context, sys *model.System[S]) ([]S, error) {
	var out []S
	_, _, err := reach.Walk[S]{Sys: sys}.Run(ctx, func(v *reach.Visit[S]) error {
		var c S
		sys.Copy(&c, v.State)
		out = append(out, c)
		for range v.Steps() { // passes them on to the walk
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
