package vlt

import (
	"fmt"

	"github.com/ringcheck/mc/ring"
)

// Phase 0, the initialization of Algorithm E (000 §2, part 1):
//
//	send message ⟨u,0⟩ to both neighbours; PNUM := 0;
//	wait for the corresponding messages ⟨u1,0⟩ and ⟨u2,0⟩ …;
//	[the test is lost in the scan] else goto observant;
//
// The sending is one step (send0), each receipt another (recv0), so that on
// half-duplex links a processor can take a neighbour's ⟨u1,0⟩ before
// sending its own over that link, as the §2 remark requires. The test
// (test0) is a step of its own too, once ⟨u,0⟩ is out and both neighbours'
// are in.

// canSend0: i is in phase 0, has not sent ⟨u,0⟩ yet, and runs Algorithm E:
// it may begin spontaneously (an initiator) or "be induced into it by one or
// both of its neighbors", by receiving their ⟨u,0⟩.
func (sp *spec) canSend0(s *State, i int) bool {
	p := &s.Proc[i]
	return p.Stage == Phase0 && !p.Sent0 && (sp.initiator[i] || p.Got0 != [2]int{})
}

func (sp *spec) canRecv0(s *State, i int) bool {
	return s.Proc[i].Stage == Phase0 && sp.recv0Choices(s, i) > 0
}

// canTest0: ⟨u,0⟩ is out and both neighbours' are in.
func (sp *spec) canTest0(s *State, i int) bool {
	p := &s.Proc[i]
	return p.Stage == Phase0 && p.Sent0 && p.Got0[0] != 0 && p.Got0[1] != 0
}

// send0 sends ⟨u,0⟩ to both neighbours at once ("A processor can send
// messages in one or two directions simultaneously", §2). On half-duplex
// links it waits while a neighbour's ⟨u1,0⟩ is on either link: the
// processor takes that first (§2 remark).
func (sp *spec) send0(s *State, i, _ int) bool {
	m := sp.chase(sp.ids[i], 0, firstQ)
	for _, port := range ports {
		if !s.Chans.Send(sp.net(s), i, port, m) {
			return false
		}
		if sp.claims {
			s.Ghost.sent(s.links().Ring, i, port, 0)
		}
	}
	s.Proc[i].Sent0 = true
	return true
}

func (sp *spec) send0Label(_ *State, i, _ int) string {
	return fmt.Sprintf("send0 p%d %v both ways", i, sp.chase(sp.ids[i], 0, firstQ))
}

// phase0Waiting reports whether the neighbour's ⟨u,0⟩ waits at i's port.
func phase0Waiting(s *State, i int, port ring.Port) bool {
	if s.Proc[i].Got0[port] != 0 || !s.Chans.Waiting(s.links(), i, port) {
		return false
	}
	m := s.Chans.Head(s.links(), i, port)
	return m.Kind == Chase && m.P == 0
}

func (sp *spec) recv0Choices(s *State, i int) int {
	c := 0
	for _, port := range ports {
		if phase0Waiting(s, i, port) {
			c++
		}
	}
	return c
}

func recv0Port(s *State, i, k int) ring.Port {
	for _, port := range ports {
		if phase0Waiting(s, i, port) {
			if k == 0 {
				return port
			}
			k--
		}
	}
	panic("vlt: recv0 choice out of range")
}

// recv0 takes a neighbour's ⟨u1,0⟩ and records u1 for the test.
func (sp *spec) recv0(s *State, i, k int) bool {
	port := recv0Port(s, i, k)
	s.Proc[i].Got0[port] = s.Chans.Take(s.links(), i, port).V
	return true
}

func (sp *spec) recv0Label(s *State, i, k int) string {
	port := recv0Port(s, i, k)
	return fmt.Sprintf("recv0 p%d %s", i, from(s, i, port, s.Chans.Head(s.links(), i, port)))
}

// test0 is the phase-0 test, reconstructed (the scan lost it; seeds README,
// "Known slips"): a local minimum u (u < u1 and u < u2) turns active with
// ID := max(u1, u2) and DIR towards min(u1, u2), and sends ⟨ID, 1⟩ over
// DIR; every other processor goes observant with its own id.
//
// If a message already waits at DIR, the local minimum may not send past
// it (the §2 remark: "a message should not be sent and any processing be
// un-done when there is still an unprocessed incoming message … in the
// direction in which a message would be sent"): it gives up its activation
// and goes observant with its own id, to relay that message (choice 0).
// Read literally, the processor would wait for the link forever (seeds
// README: n = 4, ids 1,3,2,4). The message may also be still on its way
// rather than in the queue (choice 1: the processor turns active): on a
// half-duplex link the send then finds the link busy and the choice is not
// enabled, on a full-duplex link the two messages pass each other. A send
// blocked only by the processor's own ⟨u,0⟩, not yet taken by the
// neighbour, waits.
func (sp *spec) test0(s *State, i, k int) bool {
	p := &s.Proc[i]
	u, u1, u2 := sp.ids[i], p.Got0[ring.Left], p.Got0[ring.Right]
	local, dir, waits := sp.phase0Test(s, i)
	p.Stage, p.Sent0, p.Got0 = Observant, false, [2]int{}
	if sp.fault == extraPhase0 && !sp.sendChase(s, i, dir.Opposite(), u, firstQ) {
		return false
	}
	if sp.fault == maximaActiveToo && u > u1 && u > u2 {
		p.DIR = int8(dir)
		return sp.activate(s, i, 0, LocalMinimum)
	}
	if !local || (waits && k == 0 && sp.fault != literalPhase0Test) {
		return true
	}
	p.ID, p.DIR = max(u1, u2), int8(dir)
	return sp.activate(s, i, 0, LocalMinimum)
}

// phase0Test says whether i is a local minimum, the port towards its
// smaller neighbour, and whether a message waits there.
func (sp *spec) phase0Test(s *State, i int) (local bool, dir ring.Port, waits bool) {
	p := &s.Proc[i]
	u, u1, u2 := sp.ids[i], p.Got0[ring.Left], p.Got0[ring.Right]
	dir = ring.Left
	if u2 < u1 {
		dir = ring.Right
	}
	local = u < u1 && u < u2
	return local, dir, local && s.Chans.Waiting(s.links(), i, dir)
}

// test0Choices: a local minimum with a message waiting at DIR may give up
// or turn active; every other test has one outcome.
func (sp *spec) test0Choices(s *State, i int) int {
	if _, _, waits := sp.phase0Test(s, i); waits && sp.fault != literalPhase0Test {
		return 2
	}
	return 1
}

func (sp *spec) test0Label(s *State, i, k int) string {
	p := &s.Proc[i]
	u, u1, u2 := sp.ids[i], p.Got0[ring.Left], p.Got0[ring.Right]
	local, dir, waits := sp.phase0Test(s, i)
	switch {
	case !local:
		return fmt.Sprintf("test0 p%d: %d is not a local minimum (neighbours %d, %d), observant", i, u, u1, u2)
	case waits && k == 0:
		return fmt.Sprintf("test0 p%d: local minimum %d gives up, %v waits at %s (§2 remark)", i, u, s.Chans.Head(s.links(), i, dir), dir)
	case waits:
		return fmt.Sprintf("test0 p%d: local minimum %d turns active with %d towards %s, %v still on its way", i, u, max(u1, u2), dir, s.Chans.Head(s.links(), i, dir))
	}
	return fmt.Sprintf("test0 p%d: local minimum %d turns active with %d towards %s", i, u, max(u1, u2), dir)
}
