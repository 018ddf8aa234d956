package hp

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// handler is 003's receive handler (spec.recv) with its decisions as
// parameters, each 003's in seedHandler.
type handler struct {
	// recognised: a node that sees (rnd, id) come back as its own message
	// knows it has won.
	recognised func(m Msg, rnd, id int) bool
	// announce: the winner sends ⟨leader⟩ round the ring.
	announce bool
	// stop: the winner drops its ⟨leader⟩ when it comes back; reset: it
	// then decides afresh, as if another had won.
	stop, reset bool
	// lastEdge is the counter value at which a message is promoted by
	// distance (1: its counter reaches 0 where it would be forwarded).
	lastEdge int
	// destroys replaces BASIC's rule (2) (basicDestroys).
	destroys func(rnd, id, nodeID int) bool
	// witnessed: a node of round rnd promotes a message of round rnd+1
	// it witnesses (003 Promotion by witness, even rounds: a smaller id
	// than its label); witnessRound, if not nil, replaces the rounds in
	// which it does (the variant's: even rounds in ELECT).
	witnessed    func(m Msg, label, own int) bool
	witnessRound func(rnd int) bool
	// counter is the counter a message promoted to a round with promotion
	// by distance starts with (003: F_{i+2} for round i).
	counter func(rnd int) int
	// relayCounts: a forwarding node decreases the counter (003: "each
	// time a message is forwarded counter is decreased by 1").
	relayCounts bool
	// handOff: a node that promotes a message by BASIC's comparison or by
	// distance becomes its sender (003 Improvements: "the node promoting
	// the message is then considered its sender in the next round").
	handOff bool
	// witnessDestroys: in odd rounds a node of the round before destroys
	// a message with a smaller id than its label, as if it could tell,
	// as a witness does in even rounds, what BASIC would do further on.
	witnessDestroys bool
	// compareOwn: BASIC's comparison (rule 2) reads the node's own id
	// instead of node.id, the label of its last message.
	compareOwn bool
	// ownLabel: the new sender keeps its own id as node.id instead of the
	// message's label.
	ownLabel bool
}

func seedHandler() handler {
	return handler{
		recognised: func(m Msg, rnd, id int) bool { return m.Rnd == rnd && m.ID == id },
		announce:   true, stop: true, lastEdge: 1, destroys: basicDestroys,
		witnessed:   func(m Msg, label, _ int) bool { return m.ID < label },
		counter:     func(rnd int) int { return fib(rnd + 2) },
		relayCounts: true, handOff: true,
	}
}

// into puts h in place of the system's recv (spec.recv, rule by rule).
func (h handler) into(sys *model.System[State]) {
	sp, err := newSpec(sys.Params)
	if err != nil {
		panic(err)
	}
	sp.destroys = h.destroys
	witnessRound := sp.witness
	if h.witnessRound != nil {
		witnessRound = h.witnessRound
	}
	// promote and host are spec.promote and spec.host with h's counter,
	// hand-off and label.
	promote := func(s *State, i, rnd, id int) bool {
		m := sp.hosted(rnd, id)
		if sp.distance(rnd) {
			m.Counter = h.counter(rnd)
		}
		if sp.p.Claims {
			bump(s.Ghost.Born, rnd, sp.p.N)
		}
		return sp.send(s, i, m)
	}
	host := func(s *State, i, rnd, id int) bool {
		if h.handOff {
			s.Rnd[i], s.Label[i] = rnd, id
			if h.ownLabel {
				s.Label[i] = sp.p.IDs[i]
			}
		}
		return promote(s, i, rnd, id)
	}
	spectest.ReplaceDo(sys, "recv", func(s *State, i, _ int) bool {
		m := s.In[i].Recv(sp.net.Sem, 0)
		own := sp.p.IDs[i]
		if m.Kind == Announce {
			if !s.Out.Hear(i, m.ID, own) && h.stop {
				if h.reset {
					s.Out.Learn(i, m.ID, -1)
				}
				return true
			}
			return sp.send(s, i, m)
		}
		rnd, id := s.Rnd[i], s.Label[i]
		compared := id
		if h.compareOwn {
			compared = own
		}
		outOfCounter := sp.distance(m.Rnd) && m.Counter == h.lastEdge
		switch {
		case h.recognised(m, rnd, id):
			s.Out.Learn(i, own, own)
			if !h.announce {
				return true
			}
			return sp.send(s, i, Msg{Kind: Announce, ID: own})
		case m.Rnd == rnd && sp.destroys(m.Rnd, m.ID, compared),
			h.witnessDestroys && m.Rnd%2 == 1 && m.Rnd == rnd+1 && m.ID < id:
			if sp.p.Claims {
				bump(s.Ghost.Destroyed, m.Rnd, sp.p.N)
			}
			return true
		case m.Rnd == rnd:
			return host(s, i, m.Rnd+1, m.ID)
		case witnessRound(m.Rnd) && m.Rnd == rnd+1 && h.witnessed(m, id, own):
			s.Rnd[i], s.Label[i] = m.Rnd+1, m.ID
			return promote(s, i, m.Rnd+1, m.ID)
		case outOfCounter:
			if sp.p.Claims {
				bump(s.Ghost.ByDistance, m.Rnd, sp.p.N)
			}
			return host(s, i, m.Rnd+1, m.ID)
		}
		if sp.distance(m.Rnd) && h.relayCounts {
			m.Counter--
		}
		if sp.p.Claims {
			m.Hops = min(m.Hops+1, sp.p.N+1)
		}
		return sp.send(s, i, m)
	})
}

// TestMutantsHP requires that some property of hp fails on each mutant of
// 003's receive handler, lists which, and that every property of hp fails
// on some mutant here (docs/mutants.md).
func TestMutantsHP(t *testing.T) {
	var h [10]handler
	for k := range h {
		h[k] = seedHandler()
	}
	h[0].announce = false
	h[1].stop = false
	h[2].lastEdge = 2
	h[3].destroys = func(int, int, int) bool { return false }
	h[4].destroys = func(rnd, id, nodeID int) bool { return id != nodeID }
	h[5].recognised = func(m Msg, _, id int) bool { return m.ID == id }
	h[6].destroys = func(rnd, id, nodeID int) bool { return rnd > 0 && basicDestroys(rnd, id, nodeID) }
	h[7].recognised = func(m Msg, rnd, id int) bool { return m.Rnd == rnd && m.ID <= id }
	h[8].reset = true
	h[9].witnessed = func(m Msg, label, _ int) bool { return m.ID > label }
	p := func(v string, ids ...int) model.Params {
		return model.Params{N: len(ids), IDs: ids, Variant: v, Claims: true}
	}
	mutants := []spectest.Mutant[State]{
		{Name: "announcement dropped: the winner sends no ⟨leader⟩", Params: p("elect", 1, 3, 2, 4), Mutate: h[0].into,
			Kills: []string{"election-complete", "announcement-messages"}},
		{Name: "stop dropped: the winner passes its ⟨leader⟩ on, forever", Params: p("elect", 1, 3, 2, 4), Mutate: h[1].into,
			Kills: []string{"election-terminates", "announcement-messages-bound"}},
		{Name: "bound off by one: promoted by distance one edge early", Params: p("elect", 1, 3, 2, 4), Mutate: h[2].into,
			Kills: []string{"leader-is-winner", "election-complete", "distance-promotion-edges"}},
		{Name: "comparison dropped: nothing destroyed, every message promoted", Params: p("basic", 1, 3, 2, 4), Mutate: h[3].into,
			Kills: []string{"round-bound"}},
		// Every message reaches round 3 and beyond: 3 > n/F_3 = 1.5; and
		// round 3's messages are promoted one edge after their hosts,
		// where Lemma 1 wants F_4 = 3.
		{Name: "comparison dropped in ELECT: nothing destroyed, every message promoted", Params: p("elect", 1, 3, 2), Mutate: h[3].into,
			Kills: []string{"round-bound", "theorem-1-round-pairs", "theorem-1-odd-round-messages", "theorem-1-total", "lemma-1-host-distance"}},
		{Name: "comparison widened: every other label destroyed", Params: p("basic", 1, 3, 2, 4), Mutate: h[4].into,
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages", "round-never-destroys-all"}},
		{Name: "rule order: a node knows its label in any round", Params: p("basic", 1, 3, 2, 4), Mutate: h[5].into,
			Kills: []string{"leader-is-winner", "election-complete"}},
		{Name: "comparison dropped in round 0", Params: p("elect", 1, 3, 2, 4), Mutate: h[6].into,
			Kills: []string{"leader-is-winner", "election-complete", "round-destroys-one"}},
		{Name: "comparison widened: a node that sees a smaller id of its round knows it has won", Params: p("basic", 1, 3, 2, 4), Mutate: h[7].into,
			Kills: []string{"at-most-one-leader", "leader-is-winner", "election-complete", "winner-label-is-basic"}},
		{Name: "decision reset: the winner decides lost when its ⟨leader⟩ returns", Params: p("elect", 1, 3, 2, 4), Mutate: h[8].into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "comparison flipped: a witness promotes a larger id", Params: p("elect", 1, 3, 2, 4, 5), Mutate: h[9].into,
			Kills: []string{"leader-is-winner", "election-complete"}},
	}
	mutants = append(mutants, readerSlips(p)...)
	// theorem-1-round-pairs and round-within-one-turn fail on variants
	// elect-literal and witness-literal too (TestElectLiteralBreaksLemma3,
	// TestWitnessLiteralNeverTerminates).
	if survivors := spectest.Kill(t, New, checker.Options{MaxStates: 200_000}, mutants); len(survivors) > 0 {
		t.Errorf("properties no mutant here kills: %v", survivors)
	}
}

// readerSlips are the slips a careful reader of 003 could make in ELECT's
// relay (forwarding), chase (promotion by witness and by distance, where a
// message is promoted before it reaches the next sender) and hand-off (the
// promoting node becoming the message's sender) rules, each on the
// smallest ring found, by every arrangement of n ≤ 8, where it fails.
func readerSlips(p func(string, ...int) model.Params) []spectest.Mutant[State] {
	slip := func(f func(h *handler)) func(*model.System[State]) {
		h := seedHandler()
		f(&h)
		return h.into
	}
	return []spectest.Mutant[State]{
		{Name: "relay: the forwarding node leaves the counter as it is (never promoted by distance)", Params: p("elect", 1, 3, 2),
			Mutate: slip(func(h *handler) { h.relayCounts = false }),
			Kills:  []string{"leader-is-winner", "election-complete", "theorem-1-round-pairs"}},
		{Name: "chase: counter F_{i+1} on promotion to round i (the round promoted from)", Params: p("elect", 1, 3, 2),
			Mutate: slip(func(h *handler) { h.counter = func(rnd int) int { return fib(rnd + 1) } }),
			Kills:  []string{"leader-is-winner", "election-complete", "distance-promotion-edges"}},
		{Name: "chase: counter F_i on promotion to round i", Params: p("elect", 1, 3, 2, 4),
			Mutate: slip(func(h *handler) { h.counter = func(rnd int) int { return fib(rnd) } }),
			Kills:  []string{"distance-promotion-edges", "lemma-1-host-distance"}},
		{Name: "chase: counter F_{i+3} on promotion to round i", Params: p("elect", 1, 3, 2),
			Mutate: slip(func(h *handler) { h.counter = func(rnd int) int { return fib(rnd + 3) } }),
			Kills:  []string{"leader-is-winner", "election-complete", "theorem-1-round-pairs"}},
		{Name: "chase: promotion by witness in every round (\"message.rnd is even\" dropped)", Params: p("elect", 1, 3, 2, 4),
			Mutate: slip(func(h *handler) { h.witnessRound = always }),
			Kills:  []string{"round-destroys-one", "lemma-1-host-distance"}},
		{Name: "chase: promotion by witness in odd rounds, not even ones", Params: p("elect", 1, 3, 4, 2, 5),
			Mutate: slip(func(h *handler) { h.witnessRound = odd }),
			Kills:  []string{"leader-is-winner", "election-complete", "theorem-1-round-pairs", "theorem-1-total"}},
		{Name: "chase: promotion by witness left out (BASIC with promotion by distance)", Params: p("elect", 1, 3, 4, 2, 5),
			Mutate: slip(func(h *handler) { h.witnessed = func(Msg, int, int) bool { return false } }),
			Kills:  []string{"leader-is-winner", "election-complete", "theorem-1-round-pairs", "theorem-1-total"}},
		{Name: "chase: the witness compares with its own id, not node.id", Params: p("elect", 1, 3, 2, 4),
			Mutate: slip(func(h *handler) { h.witnessed = func(m Msg, _, own int) bool { return m.ID < own } }),
			Kills:  []string{"leader-is-winner", "election-complete"}},
		{Name: "chase: in odd rounds a node of the round before destroys a smaller id, as a witness would", Params: p("elect", 1, 3, 2, 4),
			Mutate: slip(func(h *handler) { h.witnessDestroys = true }),
			Kills:  []string{"round-never-destroys-all"}},
		{Name: "hand-off: a node that promotes by comparison or distance does not become the sender", Params: p("elect", 1, 3, 2),
			Mutate: slip(func(h *handler) { h.handOff = false }),
			Kills:  []string{"leader-elected", "eventually-leader", "election-terminates", "round-within-one-turn", "theorem-1-round-pairs", "theorem-1-total"}},
		{Name: "hand-off: the new sender keeps its own id as node.id", Params: p("elect", 1, 3, 2, 4),
			Mutate: slip(func(h *handler) { h.ownLabel = true }),
			Kills:  []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages", "round-never-destroys-all"}},
		// ⟨rnd 3, id 3⟩, promoted by p4, is destroyed at p5 (own id 6),
		// one edge on, where Lemma 2 wants F_3 = 2.
		{Name: "comparison: BASIC's test reads the node's own id, not node.id", Params: p("elect", 1, 2, 5, 4, 3, 6),
			Mutate: slip(func(h *handler) { h.compareOwn = true }),
			Kills: []string{"election-complete", "leader-elected", "eventually-leader", "announcement-messages",
				"round-never-destroys-all", "round-destroys-one", "lemma-2-destroyer-distance"}},
	}
}
