package vlt

import (
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/ring"
)

// The observant state (000 §2, Algorithm E 2b), the active state (2a), the
// inauguration, and the §4 modification.

// arrival is a phase message and the port it was taken from.
type arrival struct {
	m    Msg
	port ring.Port
}

var ports = [2]ring.Port{ring.Left, ring.Right}

func (sp *spec) canRecv(s *State, i int) bool {
	return s.Proc[i].Stage == Observant && s.Chans.JointChoices(s.links(), i) > 0
}

func (sp *spec) recvChoices(s *State, i int) int { return s.Chans.JointChoices(s.links(), i) }

// recv is "receive message(s) from one or both directions": it takes the
// messages of receive choice k (ring.Chans.JointPorts), handles the phase
// messages as 2b says and then the announcement. It returns false, so
// that nothing happens, if a send finds its half-duplex link busy.
func (sp *spec) recv(s *State, i, k int) bool {
	taken := s.Chans.JointPorts(s.links(), i, k)
	var in [2]arrival
	n := 0
	var announced ring.PortSet
	leader := 0
	for _, port := range ports {
		if !taken.Has(port) {
			continue
		}
		m := s.Chans.Take(s.links(), i, port)
		if m.Kind == Announce {
			announced |= 1 << port
			leader = max(leader, m.V)
			continue
		}
		in[n] = arrival{m, port}
		n++
	}
	return sp.observe(s, i, in[:n]) && sp.hear(s, i, announced, leader)
}

// observe is 2b on the phase messages received in one step:
//
//	discard any message ⟨v,p⟩ received with p < PNUM;
//	discard any message that does not have the highest p-value among the messages;
//	case #messages left of 0: …; 1: …; 2: …
func (sp *spec) observe(s *State, i int, in []arrival) bool {
	pnum, top := s.Proc[i].PNUM, -1
	for _, a := range in {
		if a.m.P >= pnum && a.m.P > top {
			top = a.m.P
		}
	}
	tops := 0
	for _, a := range in {
		if a.m.P == top {
			tops++
		}
	}
	var left [2]arrival
	n := 0
	for _, a := range in {
		if a.m.P == top && !sp.bypassedAtActive(&s.Proc[i], a, tops) {
			left[n] = a
			n++
		}
	}
	switch n {
	case 0:
		return true
	case 1:
		return sp.one(s, i, left[0])
	}
	return sp.collide(s, i, left[0], left[1], top)
}

// bypassedAtActive is §4 rule (i): "u knows that it is active in phase p
// and, upon receiving a message ⟨β,p,0⟩ from the link over [which] its
// phase message was sent out, it will simply discard the incoming
// message". It applies to every message i takes, also to one taken in the
// same step as a message of phase p from the other side (tops counts the
// messages of the highest phase taken): then only that other message is
// left for 2b. Rule (ii) needs no such care: a
// processor that is not active in p sent its one phase-p message as a
// relay of the one its other neighbour sent, and a processor sends at
// most one message per phase p ≥ 1, so nothing of phase p can come with
// the bypassed message from the other side.
func (sp *spec) bypassedAtActive(pr *Proc, a arrival, tops int) bool {
	if sp.fault == activeKeepsBypass || (sp.fault == bypassRuleOnlyAlone && tops == 2) {
		return false
	}
	return sp.modified && pr.Active && a.m.P == pr.PNUM && pr.DIR == int8(a.port)
}

// one handles a single message ⟨v,p⟩ with p ≥ PNUM (2b, case 1).
func (sp *spec) one(s *State, i int, a arrival) bool {
	pr := &s.Proc[i]
	m := a.m
	if m.P > pr.PNUM {
		return sp.relay(s, i, a)
	}
	if sp.modified && pr.DIR == int8(a.port) {
		// §4: the message came in over the link on which i sent its own
		// phase-p message, so the two passed each other on that link
		// (rule (i), an active i discarding it, is applied in observe).
		if m.Q == firstQ {
			// Rule (ii): the sender was active; act as if its message had
			// collided at i with the one i relayed, ⟨ID,p⟩, which had come
			// from the other side.
			return sp.collide(s, i, a, arrival{sp.chase(pr.ID, m.P, relayQ), a.port.Opposite()}, m.P)
		}
		// Both were relayed: 2b as it stands does the right thing (§4).
	}
	switch {
	case m.V == pr.ID && (sp.fault != chaseOwnValueOn || pr.PNUM >= MaxPhases(sp.n)):
		return sp.inaugurate(s, i)
	case m.V < pr.ID && sp.fault == dActiveStops:
		return true
	case m.V <= pr.ID: // v < ID; v = ID only under the fault chaseOwnValueOn
		pr.DIR = int8(a.port)
		if sp.fault == dActiveFollows {
			pr.DIR = int8(a.port.Opposite())
		}
		if sp.fault == chaseWithOwnID {
			pr.ID = sp.ids[i]
		}
		return sp.activate(s, i, m.P, DActive)
	}
	return true // v > ID: stop the message (the optional ID := v omitted, as in §3)
}

// relay: "PNUM := p; ID := v; DIR := the direction in which the message
// was going; send message ⟨ID,p⟩ to the direction DIR" (with q = 0: §4).
func (sp *spec) relay(s *State, i int, a arrival) bool {
	pr := &s.Proc[i]
	if sp.fault != relayKeepsPhase {
		pr.PNUM = a.m.P
	}
	pr.DIR, pr.Active = int8(a.port.Opposite()), false
	if sp.fault != relayKeepsID {
		pr.ID = a.m.V
	}
	if sp.fault == relayBothWays && !sp.sendChase(s, i, a.port, a.m.V, relayQ) {
		return false
	}
	return sp.sendChase(s, i, a.port.Opposite(), a.m.V, relayQ)
}

// collide handles two messages of phase p ≥ PNUM from opposite directions
// (2b, case 2). Equal values inaugurate, with PNUM := p and, reconstructed
// (the scan's code omits it; seeds README), ID := v1, which Proposition
// 3.6 (iii) and the 1-bit announcement need. Different values make i
// active with the larger towards the smaller.
func (sp *spec) collide(s *State, i int, a, b arrival, p int) bool {
	pr := &s.Proc[i]
	if a.m.V == b.m.V {
		pr.PNUM = p
		if sp.fault != noIDOnEqualCollision {
			pr.ID = a.m.V
		}
		return sp.inaugurate(s, i)
	}
	if a.m.V > b.m.V {
		a, b = b, a
	}
	pr.ID, pr.DIR = b.m.V, int8(a.port)
	if sp.fault == collisionTakesSmaller {
		pr.ID = a.m.V
	}
	if sp.fault == collisionTowardLarger {
		pr.DIR = int8(b.port)
	}
	return sp.activate(s, i, p, CActive)
}

// activate is 2a for a processor that enters it with phase p:
// PNUM := p+1; send ⟨ID, PNUM⟩ to the direction DIR (with q = 1: §4).
func (sp *spec) activate(s *State, i, p int, how Activation) bool {
	pr := &s.Proc[i]
	pr.PNUM, pr.Active = p+1, sp.modified
	if sp.claims {
		s.Ghost.activate(i, p+1, sp.n, pr.ID, how, s.links().Ring.Clockwise(i, ring.Port(pr.DIR)))
	}
	return sp.sendChase(s, i, ring.Port(pr.DIR), pr.ID, firstQ)
}

// inaugurate: the election is over (000 §2 "goto inaugurate", §3). In
// variant e the processor is elected, as §2 says ("this processor will know
// that it is elected"), and sends ⟨leader u⟩ both ways to inform the others.
// In the modified version the processor whose id is in the ID registers is
// elected (§4 assumes this procedure, since two adjacent processors may
// both inaugurate), and the 1-bit flag ⟨elected⟩ goes both ways. A
// processor that already knows the outcome sends nothing.
func (sp *spec) inaugurate(s *State, i int) bool {
	pr := &s.Proc[i]
	if sp.claims {
		s.Ghost.inaugurated(pr.PNUM)
	}
	if pr.Decided != invariants.Undecided {
		return true
	}
	m := Msg{Kind: Announce}
	if sp.modified {
		sp.learn(s, i, pr.ID)
	} else {
		m.V = sp.ids[i]
		sp.learn(s, i, m.V)
	}
	return s.Chans.Send(sp.net(s), i, ring.Left, m) && s.Chans.Send(sp.net(s), i, ring.Right, m)
}

// learn records the outcome at i: the leader's id and i's decision.
func (sp *spec) learn(s *State, i, leader int) {
	pr := &s.Proc[i]
	pr.Leader, pr.Decided = leader, invariants.Lost
	if leader == sp.ids[i] {
		pr.Decided = invariants.Leader
	}
}

// hearAgain: a processor that knows the outcome drops the announcement
// (mutants aside: the faults announcementBounces and decisionReset).
func (sp *spec) hearAgain(s *State, i int, got ring.PortSet) bool {
	pr := &s.Proc[i]
	switch {
	case sp.fault == decisionReset:
		pr.Decided = invariants.Leader
	case sp.fault == announcementBounces && got != ring.BothPorts:
		m := Msg{Kind: Announce}
		if !sp.modified {
			m.V = pr.Leader
		}
		port := ring.Left
		if got == ring.OnlyRight {
			port = ring.Right
		}
		return s.Chans.Send(sp.net(s), i, port, m)
	}
	return true
}

// hear: an undecided processor that receives the announcement learns the
// outcome (the id ⟨leader v⟩ carries, or for the flag the id in its ID
// register) and passes it on in the direction it was going, unless it came
// from both sides at once; a decided one drops it. Two announcements with
// different ids (only when two processors inaugurate) yield the larger.
func (sp *spec) hear(s *State, i int, got ring.PortSet, leader int) bool {
	if got != 0 && s.Proc[i].Decided != invariants.Undecided {
		return sp.hearAgain(s, i, got)
	}
	if got == 0 {
		return true
	}
	if leader == 0 {
		leader = s.Proc[i].ID
	}
	sp.learn(s, i, leader)
	m := Msg{Kind: Announce}
	if !sp.modified {
		m.V = leader
	}
	switch got {
	case ring.OnlyLeft:
		return s.Chans.Send(sp.net(s), i, ring.Right, m)
	case ring.OnlyRight:
		return s.Chans.Send(sp.net(s), i, ring.Left, m)
	}
	return true
}
