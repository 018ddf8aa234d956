package hp

import (
	"slices"
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
	// than its label).
	witnessed func(m Msg, id int) bool
}

func seedHandler() handler {
	return handler{
		recognised: func(m Msg, rnd, id int) bool { return m.Rnd == rnd && m.ID == id },
		announce:   true, stop: true, lastEdge: 1, destroys: basicDestroys,
		witnessed: func(m Msg, id int) bool { return m.ID < id },
	}
}

// into puts h in place of the system's recv (spec.recv, rule by rule).
func (h handler) into(sys *model.System[State]) {
	sp, err := newSpec(sys.Params)
	if err != nil {
		panic(err)
	}
	sp.destroys = h.destroys
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
		outOfCounter := sp.distance(m.Rnd) && m.Counter == h.lastEdge
		switch {
		case h.recognised(m, rnd, id):
			s.Out.Learn(i, own, own)
			if !h.announce {
				return true
			}
			return sp.send(s, i, Msg{Kind: Announce, ID: own})
		case m.Rnd == rnd && sp.destroys(m.Rnd, m.ID, id):
			if sp.p.Claims {
				bump(s.Ghost.Destroyed, m.Rnd, sp.p.N)
			}
			return true
		case m.Rnd == rnd:
			return sp.host(s, i, m.Rnd+1, m.ID)
		case sp.witness(m.Rnd) && m.Rnd == rnd+1 && h.witnessed(m, id):
			return sp.host(s, i, m.Rnd+1, m.ID)
		case outOfCounter:
			return sp.promoteByDistance(s, i, m)
		}
		if sp.distance(m.Rnd) {
			m.Counter--
		}
		if sp.p.Claims {
			m.Hops = min(m.Hops+1, sp.p.N+1)
		}
		return sp.send(s, i, m)
	})
}

// TestMutantsHP requires that some property of hp fails on each mutant of
// 003's receive handler, and lists which: together with the older
// TestMutant… tests and the literal variants, every property of hp fails
// on some mutant (docs/mutants.md).
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
	h[9].witnessed = func(m Msg, id int) bool { return m.ID > id }
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
		// Every message reaches round 3 and beyond: 3 > n/F_3 = 1.5.
		{Name: "comparison dropped in ELECT: nothing destroyed, every message promoted", Params: p("elect", 1, 3, 2), Mutate: h[3].into,
			Kills: []string{"round-bound", "theorem-1-round-pairs", "theorem-1-odd-round-messages"}},
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
	// round-within-one-turn and theorem-1-round-pairs fail on variants
	// witness-literal and elect-literal (TestWitnessLiteralNeverTerminates,
	// TestElectLiteralBreaksLemma3) and on a flipped odd-round comparison
	// (TestMutantFlippedOddComparison); theorem-1-round-pairs here too.
	survivors := spectest.Kill(t, New, checker.Options{MaxStates: 200_000}, mutants)
	if want := []string{"round-within-one-turn"}; !slices.Equal(survivors, want) {
		t.Errorf("properties no mutant here kills: %v, want %v", survivors, want)
	}
}
