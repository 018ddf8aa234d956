package franklin

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// handler is 002 §5.5.1's receive handler (recv) with its decisions as
// parameters, each the seed's in seedHandler.
type handler struct {
	judge func(me, left, right int) verdict
	// back: a passive process relays ⟨id⟩ through the port it came by.
	back bool
	// keepHeard: a surviving process does not clear heard.
	keepHeard bool
	// oneWay: a surviving process sends its id through its Right port
	// only.
	oneWay bool
	// eager: an active process judges as soon as it has heard one side,
	// taking the side not yet heard for its own id.
	eager bool
	// hear handles ⟨leader v⟩ at i, which came through port.
	hear func(sp *spec, s *State, i int, port ring.Port, m Msg) bool
}

func seedHandler() handler {
	return handler{judge: compare, hear: func(sp *spec, s *State, i int, port ring.Port, m Msg) bool {
		if !s.Out.Hear(i, m.ID, sp.params.IDs[i]) {
			return true
		}
		return sp.relay(s, i, port, m)
	}}
}

// into puts h in place of the system's recv.
func (h handler) into(sys *model.System[State]) {
	sp, _, err := build(sys.Params)
	if err != nil {
		panic(err)
	}
	spectest.ReplaceDo(sys, "recv", func(s *State, i, k int) bool {
		port, m := sp.net.Recv(s, i, k, open(s, i))
		if s.P[i].Status == Asleep && !sp.start(s, i, 0) {
			return false
		}
		p := &s.P[i]
		me := sp.params.IDs[i]
		switch {
		case m.Kind == Leader:
			return h.hear(sp, s, i, port, m)
		case p.Status != Active && h.back:
			return sp.net.Send(s, i, port, m)
		case p.Status != Active:
			return sp.relay(s, i, port, m)
		}
		p.Heard[port] = m.ID
		left, right := p.Heard[ring.Left], p.Heard[ring.Right]
		if h.eager && left == 0 {
			left = me
		}
		if h.eager && right == 0 {
			right = me
		}
		if left == 0 || right == 0 {
			return true
		}
		v := h.judge(me, left, right)
		if !h.keepHeard || v != survives {
			p.Heard = [2]int{}
		}
		switch v {
		case wins:
			p.Status = Won
			s.Out.Learn(i, me, me)
			return sp.net.Send(s, i, ring.Right, Msg{Kind: Leader, ID: me})
		case survives:
			sp.net.Advance(s, i)
			if h.oneWay {
				return sp.net.Send(s, i, ring.Right, Msg{Kind: ID, ID: me})
			}
			return sp.sendID(s, i)
		}
		p.Status = Passive
		return true
	})
}

// Every property of Franklin's election fails on some mutant of its
// receive handler (docs/mutants.md).
func TestMutantsFranklin(t *testing.T) {
	var h [13]handler
	for k := range h {
		h[k] = seedHandler()
	}
	h[0].judge = func(me, left, right int) verdict {
		if left == me && right == me {
			return wins
		}
		if me > left || me > right {
			return survives
		}
		return loses
	}
	h[1].judge = func(me, left, right int) verdict {
		if me >= left && me >= right {
			return survives
		}
		return loses
	}
	h[2].judge = func(me, left, right int) verdict {
		if left == right {
			return wins
		}
		return compare(me, left, right)
	}
	h[3].judge = func(me, left, right int) verdict {
		if left == me && right == me {
			return wins
		}
		if me < left && me < right {
			return survives
		}
		return loses
	}
	h[4].judge = func(me, left, right int) verdict {
		if v := compare(me, left, right); v != wins {
			return v
		}
		return loses
	}
	h[5].back = true
	h[6].keepHeard = true
	h[7].hear = func(sp *spec, s *State, i int, port ring.Port, m Msg) bool {
		s.Out.Hear(i, m.ID, sp.params.IDs[i])
		return sp.relay(s, i, port, m)
	}
	h[8].hear = func(sp *spec, s *State, i int, port ring.Port, m Msg) bool {
		if !s.Out.Hear(i, m.ID, sp.params.IDs[i]) {
			s.Out.Decided[i] = invariants.Lost
			return true
		}
		return sp.relay(s, i, port, m)
	}
	h[9].hear = func(sp *spec, s *State, i int, _ ring.Port, m Msg) bool {
		s.Out.Hear(i, m.ID, sp.params.IDs[i])
		return true
	}
	h[10].judge = func(me, left, right int) verdict {
		if left == me && right == me {
			return wins
		}
		if me > right {
			return survives
		}
		return loses
	}
	h[11].oneWay = true
	h[12].eager = true
	p := func(ids ...int) model.Params { return model.Params{N: len(ids), IDs: ids, Claims: true} }
	mutants := []spectest.Mutant[State]{
		{Name: "comparison weakened: surviving on beating either neighbour", Rule: "survive if id > both neighbours' ids", Params: p(1, 2, 3, 4), Mutate: h[0].into,
			Kills: []string{"active-halves", "election-messages-bound"}},
		{Name: "comparison off by one: ≥ for >", Rule: "survive if id > both neighbours' ids", Params: p(3, 1, 2), Mutate: h[1].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "active-halves", "election-messages-bound"}},
		{Name: "comparison wrong: winning on the same id from both sides", Rule: "elected if its own id comes back from both sides", Params: p(4, 1, 3, 2), Mutate: h[2].into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "election-complete"}},
		{Name: "comparison flipped: surviving on losing to both", Rule: "survive if id > both neighbours' ids", Params: p(4, 1, 3, 2), Mutate: h[3].into,
			Kills: []string{"leader-is-max", "election-complete"}},
		{Name: "rule dropped: its own id from both sides makes a process lose, not win", Rule: "elected if its own id comes back from both sides", Params: p(4, 1, 3, 2), Mutate: h[4].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "message direction: a passive process sends ⟨id⟩ back the way it came", Rule: "passive: relay ⟨id⟩ through the other port", Params: p(4, 1, 3, 2), Mutate: h[5].into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "decision-stable", "election-complete", "announcement-messages-bound", "announcement-messages"}},
		{Name: "reset dropped: a surviving process keeps what it heard", Rule: "survive: clear heard, send ⟨id⟩ both ways", Params: p(4, 1, 3, 2), Mutate: h[6].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "stop dropped: the announcement is relayed forever", Rule: "⟨leader v⟩ back at the winner: drop", Params: p(4, 1, 3, 2), Mutate: h[7].into,
			Kills: []string{"election-terminates", "announcement-messages-bound"}},
		{Name: "decision reset: the winner decides lost when its announcement returns", Rule: "⟨leader v⟩ back at the winner: drop", Params: p(4, 1, 3, 2), Mutate: h[8].into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "announcement not relayed", Rule: "⟨leader v⟩: decide lost, relay", Params: p(4, 1, 3, 2), Mutate: h[9].into,
			Kills: []string{"election-complete", "announcement-messages"}},
		{Name: "comparison one-sided: surviving on beating the right neighbour only", Rule: "survive if id > both neighbours' ids",
			Params: p(4, 3, 2, 1), Mutate: h[10].into, Kills: []string{"active-halves", "election-messages-bound"}},
		{Name: "message direction: a surviving process sends its id one way only", Rule: "survive: clear heard, send ⟨id⟩ both ways",
			Params: p(4, 1, 3, 2), Mutate: h[11].into, Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages"}},
		{Name: "guard dropped: an active process judges on hearing one side", Rule: "compare once both sides are heard",
			Params: p(4, 1, 3, 2), Mutate: h[12].into, Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "election-messages-bound"}},
	}
	spectest.Suite[State]{
		Section: "franklin (002 §5.5.1), claims on",
		Build:   New, Options: checker.Options{MaxStates: 200000}, Mutants: mutants,
	}.Run(t)
}
