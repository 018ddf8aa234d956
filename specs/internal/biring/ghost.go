package biring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Ghost is the history that the claims of hs and franklin read (see
// model/ghost.go): how far each process got and how many election messages
// were sent. Rules write it only when claims are on; nothing but properties
// reads it.
//
// The counters saturate, so that a run whose model loops (a mutant, or
// raynal-literal's endless phases) still has finitely many states with
// claims on: each stops at its cap in Caps. The caps sit one above the
// largest value the claims allow, so saturation never hides a violation.
type Ghost struct {
	// Reached[p] is how many phases (hs, counted from phase 0) or stages
	// (franklin) process p has entered: 0 before its first.
	Reached []uint8
	// Sent counts the election messages sent and forwarded so far, the
	// announcement apart.
	Sent int
	// Announced counts the messages of the announcement round.
	Announced int
}

// Caps are the saturation points of a Ghost.
type Caps struct {
	Reach uint8
	Sent  int
	// Announced is n+1: the announcement takes n messages.
	Announced int
}

// NewGhost returns the empty history of a ring of n.
func NewGhost(n int) Ghost { return Ghost{Reached: make([]uint8, n)} }

// Enter records that p entered its k-th phase or stage (k ≥ 1).
func (g *Ghost) Enter(c Caps, p, k int) {
	g.Reached[p] = max(g.Reached[p], uint8(min(k, int(c.Reach))))
}

// Advance records that p entered its next phase or stage. It reads the
// ghost only to update the ghost, which the rule for history variables
// allows.
func (g *Ghost) Advance(c Caps, p int) { g.Reached[p] = min(g.Reached[p]+1, c.Reach) }

// Count records that m more election messages were sent.
func (g *Ghost) Count(c Caps, m int) { g.Sent = min(g.Sent+m, c.Sent) }

// Announce records one message of the announcement round.
func (g *Ghost) Announce(c Caps) { g.Announced = min(g.Announced+1, c.Announced) }

// Entrants returns e, e[k] the number of processes that entered at least
// k phases or stages, for k from 0 to the most any entered; into is
// reused. It counts every k at once, in O(n) plus the number of phases:
// the claims that compare the counts of successive phases read all of
// them, and mc simulate evaluates the claims at thousands of processes.
func (g *Ghost) Entrants(into []int) []int {
	e := into[:0]
	for _, r := range g.Reached {
		for len(e) <= int(r) {
			e = append(e, 0)
		}
		e[r]++
	}
	for k := len(e) - 2; k >= 0; k-- {
		e[k] += e[k+1]
	}
	return e
}

// AtLeast is e[k] of Entrants' e: 0 past its end.
func AtLeast(e []int, k int) int {
	if k < len(e) {
		return e[k]
	}
	return 0
}

// Most is the largest number of phases or stages any process entered.
func (g *Ghost) Most() int {
	m := 0
	for _, r := range g.Reached {
		m = max(m, int(r))
	}
	return m
}

// Erase zeroes the history.
func (g *Ghost) Erase() {
	clear(g.Reached)
	g.Sent, g.Announced = 0, 0
}

// CopyFrom makes g a copy of o, reusing g's storage.
func (g *Ghost) CopyFrom(o *Ghost) {
	g.Reached = append(g.Reached[:0], o.Reached...)
	g.Sent, g.Announced = o.Sent, o.Announced
}

// AppendTo writes the history's canonical encoding.
func (g *Ghost) AppendTo(buf []byte) []byte {
	for _, r := range g.Reached {
		buf = model.AppendUint(buf, uint64(r))
	}
	buf = model.AppendUint(buf, uint64(g.Sent))
	return model.AppendUint(buf, uint64(g.Announced))
}

// DecodeFrom reads what AppendTo wrote.
func (g *Ghost) DecodeFrom(d *model.Decoder) {
	for i := range g.Reached {
		g.Reached[i] = uint8(d.Uint())
	}
	g.Sent, g.Announced = d.Int(), d.Int()
}

// Vars lists the history for traces; word is "phases" or "stages".
func (g *Ghost) Vars(out []model.Var, word string) []model.Var {
	for p, r := range g.Reached {
		out = append(out, model.Var{Name: fmt.Sprintf("ghost.p%d.%s", p, word), Value: fmt.Sprint(r)})
	}
	return append(out, model.Var{Name: "ghost.sent", Value: fmt.Sprint(g.Sent)},
		model.Var{Name: "ghost.announced", Value: fmt.Sprint(g.Announced)})
}
