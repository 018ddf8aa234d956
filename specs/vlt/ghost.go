package vlt

import (
	"fmt"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Ghost is the history the claims of 000 §3 and §4 are about (model/ghost.go:
// rules write it only with --claims, and nothing but properties reads it).
// Per-phase data is kept flat, phase after phase, n entries per phase.
type Ghost struct {
	// LastSent[i] is the port over which processor i last sent a phase
	// message of phase ≥ 1, or noDir (Lemma 3.1).
	LastSent []int8
	// Colour[p*n+i] is i's colour in phase p if i is active in phase p,
	// else 0 (Definition before Lemma 3.2: A_p and Ã_p). In phase 0 every
	// processor is active with its own id (|Ã_0| = N, Prop. 3.8).
	Colour []int
	// How[p*n+i] says how i became active in phase p (Lemma 3.3).
	How []Activation
	// Toward[p*n+i] is the way round the ring i sent its phase-p message
	// when it became active in phase p (clockwise or counterClockwise), or
	// noDir if it was not active in p (Lemma 3.3 (iv), Lemma 3.5 (iii)).
	// Phase 0's entries stay noDir: ⟨u,0⟩ goes both ways.
	Toward []int8
	// Crossed[2(p*n+k)+d] counts the phase-p messages sent over link k
	// clockwise (d = 0) or counter-clockwise (d = 1) (Prop. 3.9, 4.2).
	Crossed []uint8
	// Inaugurations counts the times a processor moved to the inauguration
	// state (Prop. 3.6 (i)).
	Inaugurations int
	// InauguratedIn has bit p set when a processor moved to the
	// inauguration state in phase p: "a leader is found in phase p"
	// (Prop. 3.4).
	InauguratedIn uint64
}

// Ways round the ring, for Toward.
const (
	clockwise        int8 = 0
	counterClockwise int8 = 1
)

// Activation is how a processor became active in a phase.
type Activation uint8

const (
	NotActive Activation = iota
	// Initial: phase 0, in which every processor sends its own id.
	Initial
	// LocalMinimum: phase 1, by the phase-0 test.
	LocalMinimum
	// CActive: two messages of the previous phase collided at it (or, in
	// the modified version, it acted as if they had: §4 rule (ii)).
	CActive
	// DActive: one message of its own phase with a smaller value.
	DActive
)

func (a Activation) String() string {
	return [...]string{"-", "initial", "local minimum", "c-active", "d-active"}[a]
}

// start sets the history of the initial state: phase 0 with every
// processor active in its own colour, and no message sent yet.
func (g *Ghost) start(ids []int) {
	n := len(ids)
	g.LastSent = make([]int8, n)
	for i := range g.LastSent {
		g.LastSent[i] = noDir
	}
	g.Colour = append([]int(nil), ids...)
	g.How = make([]Activation, n)
	for i := range g.How {
		g.How[i] = Initial
	}
	g.Toward = make([]int8, n)
	for i := range g.Toward {
		g.Toward[i] = noDir
	}
	g.Crossed = make([]uint8, 2*n)
}

// Phases is the number of phases the history covers.
func (g *Ghost) Phases(n int) int { return len(g.Colour) / n }

func (g *Ghost) reach(p, n int) {
	for g.Phases(n) <= p {
		g.Colour = append(g.Colour, make([]int, n)...)
		g.How = append(g.How, make([]Activation, n)...)
		for range n {
			g.Toward = append(g.Toward, noDir)
		}
		g.Crossed = append(g.Crossed, make([]uint8, 2*n)...)
	}
}

// activate records that i became active in phase p with this colour, and
// sent its phase message clockwise (cw) or counter-clockwise.
func (g *Ghost) activate(i, p, n, colour int, how Activation, cw bool) {
	g.reach(p, n)
	g.Colour[p*n+i], g.How[p*n+i], g.Toward[p*n+i] = colour, how, counterClockwise
	if cw {
		g.Toward[p*n+i] = clockwise
	}
}

// inaugurated records that a processor moved to the inauguration state in
// phase p.
func (g *Ghost) inaugurated(p int) {
	g.Inaugurations++
	g.InauguratedIn |= 1 << p
}

func (g *Ghost) sent(r ring.Ring, i int, port ring.Port, p int) {
	g.reach(p, r.N)
	k, cw := r.LinkOf(i, port)
	d := 0
	if !cw {
		d = 1
	}
	g.Crossed[2*(p*r.N+k)+d]++
	if p >= 1 {
		g.LastSent[i] = int8(port)
	}
}

// active returns the colours of phase p by processor (0: not active).
func (g *Ghost) active(p, n int) []int { return g.Colour[p*n : (p+1)*n] }

// Messages is the number of phase-p messages sent so far.
func (g *Ghost) Messages(p, n int) int {
	t := 0
	for _, c := range g.Crossed[2*p*n : 2*(p+1)*n] {
		t += int(c)
	}
	return t
}

// onLink is the number of phase-p messages sent over link k, both ways.
func (g *Ghost) onLink(p, n, k int) int {
	return int(g.Crossed[2*(p*n+k)]) + int(g.Crossed[2*(p*n+k)+1])
}

// colours is Ã_p, the distinct colours of the processors active in phase
// p, as a set of ranks among the sorted ids (rank).
func (g *Ghost) colours(p, n int, rank func(id int) int) uint64 {
	var set uint64
	for _, c := range g.active(p, n) {
		if c != 0 {
			set |= 1 << rank(c)
		}
	}
	return set
}

func (g *Ghost) copyFrom(o *Ghost) {
	g.LastSent = append(g.LastSent[:0], o.LastSent...)
	g.Colour = append(g.Colour[:0], o.Colour...)
	g.How = append(g.How[:0], o.How...)
	g.Toward = append(g.Toward[:0], o.Toward...)
	g.Crossed = append(g.Crossed[:0], o.Crossed...)
	g.Inaugurations, g.InauguratedIn = o.Inaugurations, o.InauguratedIn
}

func (g *Ghost) appendTo(buf []byte) []byte {
	buf = model.AppendUint(buf, uint64(len(g.LastSent)))
	for _, x := range g.LastSent {
		buf = append(buf, byte(x+1))
	}
	buf = model.AppendUint(buf, uint64(len(g.Colour)))
	for i, c := range g.Colour {
		buf = model.AppendUint(buf, uint64(c))
		buf = append(buf, byte(g.How[i]), byte(g.Toward[i]+1))
	}
	for _, c := range g.Crossed {
		buf = model.AppendUint(buf, uint64(c))
	}
	return model.AppendUint(model.AppendUint(buf, uint64(g.Inaugurations)), g.InauguratedIn)
}

func (g *Ghost) decodeFrom(d *model.Decoder) {
	g.LastSent = g.LastSent[:0]
	for k := d.Int(); k > 0 && d.Err() == nil; k-- {
		g.LastSent = append(g.LastSent, int8(d.Int())-1)
	}
	g.Colour, g.How, g.Toward = g.Colour[:0], g.How[:0], g.Toward[:0]
	m := d.Int()
	for k := m; k > 0 && d.Err() == nil; k-- {
		g.Colour = append(g.Colour, d.Int())
		g.How = append(g.How, Activation(d.Int()))
		g.Toward = append(g.Toward, int8(d.Int())-1)
	}
	// Crossed has two entries per entry of Colour.
	g.Crossed = g.Crossed[:0]
	for k := 2 * m; k > 0 && d.Err() == nil; k-- {
		g.Crossed = append(g.Crossed, uint8(d.Int()))
	}
	g.Inaugurations, g.InauguratedIn = d.Int(), d.Uint()
}

// appendVars renders the history per phase for a trace.
func (g *Ghost) appendVars(out []model.Var, n int) []model.Var {
	out = append(out, model.Var{Name: "ghost.inaugurations", Value: fmt.Sprintf("%d (phases %s)", g.Inaugurations, phaseList(g.InauguratedIn))})
	for p := 0; p < g.Phases(n); p++ {
		var act, links []string
		for i, c := range g.active(p, n) {
			if c != 0 {
				act = append(act, fmt.Sprintf("p%d:%d %s %s", i, c, g.How[p*n+i], towardString(g.Toward[p*n+i])))
			}
		}
		for k := 0; k < n; k++ {
			links = append(links, fmt.Sprintf("%d/%d", g.Crossed[2*(p*n+k)], g.Crossed[2*(p*n+k)+1]))
		}
		out = append(out,
			model.Var{Name: fmt.Sprintf("ghost.phase%d.active", p), Value: strings.Join(act, ", ")},
			model.Var{Name: fmt.Sprintf("ghost.phase%d.messages", p),
				Value: fmt.Sprintf("%d (per link, clockwise/counter-clockwise: %s)", g.Messages(p, n), strings.Join(links, " "))})
	}
	return out
}

func towardString(t int8) string {
	switch t {
	case clockwise:
		return "clockwise"
	case counterClockwise:
		return "counter-clockwise"
	}
	return "both ways"
}

// phaseList renders a set of phases: "2", "1,3", or "-".
func phaseList(set uint64) string {
	var ps []string
	for p := 0; set>>p != 0; p++ {
		if set>>p&1 == 1 {
			ps = append(ps, fmt.Sprint(p))
		}
	}
	if ps == nil {
		return "-"
	}
	return strings.Join(ps, ",")
}
