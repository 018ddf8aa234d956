// Package hp is the Higham–Przytycka election on a unidirectional ring
// (seed 003, lecture notes on Higham & Przytycka 1995, "A simple, efficient
// algorithm for maximum finding on rings"): BASIC, its two improvements
// (promotion by witness, promotion by distance) and ELECT, which combines
// them.
//
// Ring and ids: processes 0..n-1; process i sends only to (i+1) mod n (the
// seed's "next node"). Ids are distinct positive integers, process 0's
// first.
//
// Messages: (rnd, id), the seed's round number and label, with a counter
// field in the rounds that use promotion by distance; and ⟨leader j⟩, the
// announcement this spec adds.
//
// Channels: FIFO and unbounded, or bounded by --cap (a send to a full
// channel blocks). The seed's correctness argument assumes messages of a
// round stay in ring order ("each message has to travel to the next sender
// on the ring"), so --chan bag is refused.
//
// State: per process the seed's node.rnd and node.id, "what the previous
// message sent by them looked like", where "sent" means sent as its sender:
// initially, or when promoting it; forwarding does not change them (003
// "Improvements": "the node promoting the message is then considered its
// sender in the next round"). Also whether it has started, what it knows of
// the outcome (decided, and the leader's id), and its input channel.
//
// One step is one action of one process, with all it sends:
//
//   - start(i) — 003 BASIC, "At the beginning each node sends a message with
//     rnd = 0 and id set to its unique identifier": enabled when i has not
//     started and is an initiator or a message waits for it (a node that
//     does not start spontaneously joins when the election reaches it).
//     Sets node.rnd = 0, node.id = id(i) and sends (0, id(i)).
//   - recv(i) — enabled when i has started: removes the message at the head
//     of i's channel and reacts in the same step. For a message (rnd, id[,
//     counter]) at a node with node.rnd and node.id, the first case that
//     applies:
//     (1) rnd = node.rnd and id = node.id — 003 BASIC, "looks the same as
//     the message previously sent by it": i is the leader and announces it;
//     (2) rnd = node.rnd — 003 BASIC: if rnd is odd and id < node.id, or
//     rnd is even and id > node.id, the message is destroyed; otherwise it
//     is promoted;
//     (3) promotion by witness (variants witness, elect) — 003 "Promotion by
//     witness": rnd = node.rnd + 1, rnd even and id < node.id: promoted;
//     (4) promotion by distance (variant distance in every round, elect in
//     odd rounds) — 003 "Promotion by distance": the message would be
//     forwarded and its counter is decreased by 1; if that makes it 0, it
//     is promoted instead;
//     (5) otherwise — 003 BASIC, "receives a message with different rnd than
//     its own then it simply forwards the message" (with its counter
//     decreased, where it has one).
//     Promoting a message (rnd, id) at i sends (rnd+1, id), with counter
//     F(rnd+3) if round rnd+1 uses promotion by distance (003: "Each time the
//     message gets promoted to round i, counter is set to F_{i+2}"), and sets
//     node.rnd = rnd+1, node.id = id. The initial messages of round 0 count
//     as promoted to round 0 (counter F(2) = 1 in variant distance; a round-0
//     message always meets a started node of round 0 first, so it never
//     matters).
//     ⟨leader j⟩: a process that does not know the outcome learns that the
//     process with id j won (it has lost) and relays it; the leader drops
//     it.
//
// The announcement is ours: the seed says only that the node whose message
// came back "becomes a leader" and that the other machines must "agree as to
// who the leader is". The leader sends ⟨leader id(i)⟩ once round the ring, n
// messages, counted apart from the election's edges.
//
// Reconstructions and readings: F_t is the Fibonacci number with F_1 = F_2
// = 1. "Counter reaches 0" is read as: the counter is decreased where the
// message would be forwarded, so a message promoted to round i and then
// promoted by distance has travelled exactly F(i+2) edges (checked with
// --claims by distance-promotion-edges). Where the ordinary rule (2)
// applies it comes first, since the message is then not forwarded.
//
// Variant elect-literal reads the counter as 003 prints it: "If counter
// reaches 0 then the message is promoted without checking any other
// conditions", so rule (4) comes before rules (1) to (3). A message then
// reaches a node of its own round as its counter runs out and is promoted
// where BASIC destroys it. It still elects one leader, the one its rules
// give round by round, but another node than ELECT's for 15 arrangements
// of n = 5 and 312 of n = 6; its worst edge counts are 9, 16, 25, 30 for
// n = 3..6 (ELECT's 9, 12, 18, 27), and Theorem 1's per-round inequality
// fails (Lemma 3: ids 1,3,2,4, where round 2 traverses n edges and still
// promotes a message), and so does its total (theorem-1-total, 8, 10 and
// 108 arrangements of n = 4, 5, 6). Where n = F_{i+2}, a message of odd
// round i that meets no other node of its round comes back to its own
// host just as its counter runs out, and read literally is promoted there:
// Lemma 1 fails, δ = 0 < F_{i+1} (80 arrangements of n = 5; ids
// 1,2,4,3,5: ⟨rnd 3, id 2⟩ back at p1 after 5 edges is promoted to round
// 4 where mc's reading recognises the leader).
// In mc's reading a message that meets a node of its round is always
// compared there, as in BASIC.
//
// Promotion by witness, and variant witness-literal. The witness paragraph
// says only that the node "can promote it now", and BASIC defines promotion
// as "message.rnd is bumped by 1 and message gets passed to the next node":
// read so, the witness passes the promoted message on and keeps its own
// node.rnd and node.id. That is variant witness-literal, and mc shows that
// it breaks termination: for ids 1,3,4,2,5 the message that should win is
// promoted by witness at p2 into round 3, no node ever has node.rnd = 3 and
// node.id = its label, so it never "looks the same as the message
// previously sent" by anyone and circles the ring for ever. No state has a
// leader, the state graph has no terminal state (leader-elected fails), and
// with --claims round-within-one-turn fails with the run in which the
// message sets out on its (n+1)-th edge of round 3. Of the arrangements of
// n ≤ 6, 243 fail so.
// The default readings (variants witness and elect) follow 003
// "Improvements" instead: "the node promoting the message is then
// considered its sender in the next round", so a witness sets node.rnd and
// node.id to the promoted message. (ELECT under the literal reading still
// elects one leader for every arrangement of n ≤ 6, since the promotion by
// distance of the odd round that follows gives the message a sender again,
// but the detour costs edges: Theorem 1's bound fails for 30 of them, ids
// 1,3,4,2,5 first.) The condition itself,
// "message.rnd = node.rnd + 1 and message.rnd is even … if message.id <
// node.id", is taken as printed, with node.id the label of the node's last
// message, not its own id (read as the node's own id, it promotes messages
// that BASIC destroys, and for ids 1,2,3 rounds run past the bound n-1).
//
// Claims (--claims; ghosts: the edges traversed, the ⟨leader⟩ messages,
// per round the messages that entered it, were destroyed in it and were
// promoted out of it by distance, and per message the edges it travelled
// in its round):
//
//   - round-never-destroys-all and round-destroys-one — 003 Correctness. The
//     second is checked for the rounds with no promotion by distance, as the
//     seed warns; rounds without any destruction do happen in variants
//     distance and elect (ids 1,4,3,2,5, and 15 of the 120 arrangements of
//     n = 5).
//   - distance-promotion-edges — a message promoted by distance out of round
//     i has travelled F(i+2) edges.
//   - round-within-one-turn — no message travels more than n edges in a
//     round (it meets the next sender of its round first).
//   - theorem-1-round-pairs (variants elect, elect-literal) — the
//     inequality that the proof of 003 Theorem 1 sums, with its own
//     constants: for every even round i, with x messages entering round
//     i+1, round i's messages traverse at most n − x·F_i edges (Lemma 3)
//     and round i+1's at most min(x·F_{i+3}, n). No constant is fitted to
//     the model's counts. The worst counts over all arrangements and runs
//     are 4, 9, 12, 18, 27, 31 for n = 2..7 (the same in every run of an
//     arrangement); 1.271 n log₂ n + c·n needs c ≥ 1.2145 (n = 6), the
//     results table's "c needed".
//   - theorem-1-odd-round-messages (variants elect, elect-literal) — the
//     count Theorem 1's proof draws from Lemmas 1 and 2: every message of
//     an odd round i travels at least F_i edges and no two share one, so at
//     most n/F_i messages enter round i (ghost Born: every message that
//     ever entered, so at most that many are alive at once too). From it
//     the proof draws "at most F⁻¹(n) + O(1) rounds": round-bound checks
//     rnd ≤ F⁻¹(n) in ELECT, the O(1) being 0 (bounds.go).
//   - lemma-1-host-distance and lemma-2-destroyer-distance (variants elect,
//     elect-literal) — 003 Lemmas 1 and 2: a message of odd round i is
//     promoted at least F_{i+1}, and destroyed at least F_i, edges past
//     the node that promoted it to round i (step properties on the Hops
//     ghost; lemmas.go says why no ghost of past positions is needed).
//   - theorem-1-total (variants elect, elect-literal) — Theorem 1's total:
//     all the election's edges together are at most the sum, over the
//     even rounds the run reached, of what the proof allows a pair of
//     rounds with its own constants. The theorem's 1.271 n log n + O(n)
//     leaves the O(n) open, so as stated no finite run can contradict it;
//     lemmas.go gives the argument and the finite form checked instead.
//   - announcement-messages(-bound) — the added round costs exactly n.
//
// Which ring puts which claim to the test (TestClaimsMeetTheirSituation,
// in variants elect, basic, witness and distance; the situations are in
// situations_test.go): the default ring of 5 (ids 5,4,3,2,1, 152 states)
// never reaches round 3, so there the claims about it pass without being
// exercised (TestDefaultRingLeavesRoundThreeUntested): mc check hp
// --claims reports theorem-1-odd-round-messages and
// lemma-2-destroyer-distance "pass (vacuous: …)". Each claim declares its
// situation (model.Property.When, docs/vacuity.md): a message destroyed,
// a round that two messages entered (none promoted by distance), an
// election message in transit, a promotion by distance, a message
// entering an odd round (past round 1 for theorem-1-odd-round-messages,
// where F_i > 1), a message of an odd round promoted or destroyed
// (Lemmas 1 and 2), an edge traversed (theorem-1-total), a leader
// (winner-label-is-basic). Ids 1,2,4,5,3,6
// (n = 6, 640 states in ELECT, the first ring of 6 that reaches round 4)
// promote a message out of round 3 by distance, after F_5 = 5 edges:
// Lemma 1's promotion-by-distance case, distance-promotion-edges at round
// 3, theorem-1-round-pairs for rounds 2 and 3 and the total past round 3.
// Ids 1,3,6,5,4,7,2,8 (n = 8, 4,416 states; no ring of n ≤ 7 does it) send
// two messages into round 3 (theorem-1-odd-round-messages: n/F_3 = 4
// allows four), destroy one there (Lemma 2) and promote the other by
// comparison (Lemma 1's other case). On both rings a round past 0 destroys
// a message (round-never-destroys-all), a round past 0 that two messages
// entered has none promoted by distance (round-destroys-one), a message
// comes back to its host after n edges (round-within-one-turn) and the
// leader announces. No ring puts round-bound to the test at its bound:
// ELECT reaches round 4 at most (every arrangement of n ≤ 8, and 3,000
// random runs of n = 9), where the bound is 5; the literal reading
// (elect-literal) reaches round 5 for some arrangements of n = 8.
//
// Which process wins: see winner.go. Bounds: see bounds.go.
package hp

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "elect", Doc: "003 ELECT: BASIC with promotion by distance in odd rounds and by witness in even rounds"},
	{Name: "basic", Doc: "003 BASIC: a message is promoted or destroyed only at the next sender"},
	{Name: "witness", Doc: "003 BASIC with promotion by witness (even rounds)"},
	{Name: "distance", Doc: "003 BASIC with promotion by distance in every round, counter F(i+2) on promotion to round i"},
	{Name: "witness-literal", Doc: "003 promotion by witness as its paragraph words it: the witness passes the message on without becoming its sender (fails: no leader)"},
	{Name: "elect-literal", Doc: "003 ELECT with the distance counter checked first, as printed: a message whose counter reaches 0 is promoted \"without checking any other conditions\""},
}

// Ref is the seed the spec comes from.
const Ref = "003"

// improvements says in which rounds a variant promotes early, and whether
// a witness becomes the sender of the message it promotes.
type improvements struct {
	witness, distance func(rnd int) bool
	witnessSends      bool
	// counterFirst: a message whose counter runs out is promoted before
	// any other rule is looked at (variant elect-literal).
	counterFirst bool
}

func never(int) bool    { return false }
func always(int) bool   { return true }
func even(rnd int) bool { return rnd%2 == 0 }
func odd(rnd int) bool  { return rnd%2 == 1 }

// variantRules are the improvements of variant v (a name from Variants).
func variantRules(v string) improvements {
	switch v {
	case "basic":
		return improvements{witness: never, distance: never}
	case "witness":
		return improvements{witness: even, distance: never, witnessSends: true}
	case "witness-literal":
		return improvements{witness: even, distance: never}
	case "distance":
		return improvements{witness: never, distance: always}
	case "elect-literal":
		return improvements{witness: even, distance: odd, witnessSends: true, counterFirst: true}
	}
	return improvements{witness: even, distance: odd, witnessSends: true}
}

type spec struct {
	p   model.Params
	net ring.Net
	improvements
	// destroys is BASIC's test at the next sender (rule 2). Tests replace
	// it with broken mutants.
	destroys func(rnd, id, nodeID int) bool
	// maxRound bounds the rounds (see bounds.go).
	maxRound int
}

// basicDestroys is 003 BASIC: in odd rounds a message with a smaller id than
// the node's is destroyed, in even rounds one with a larger id.
func basicDestroys(rnd, id, nodeID int) bool {
	if rnd%2 == 1 {
		return id < nodeID
	}
	return id > nodeID
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	sp, err := newSpec(p)
	if err != nil {
		return nil, err
	}
	return sp.system(), nil
}

func newSpec(p model.Params) (*spec, error) {
	p, err := ring.FIFOParams("hp", Variants, p, "003: a message travels to the next sender on the ring")
	if err != nil {
		return nil, err
	}
	sp := &spec{p: p, net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}, improvements: variantRules(p.Variant), destroys: basicDestroys}
	sp.maxRound = sp.roundBound()
	return sp, nil
}

// recvRule is recv's index in the system's rules: the step properties
// read which rule a step took, not the process's variables, which the
// claims do not read (model.Property.Reads).
const recvRule = 1

func (sp *spec) system() *model.System[State] {
	n := sp.p.N
	// Both rules touch node i's variables, receive from (start: wait on)
	// In[i] and send to In[i+1]; with claims on they write the ghosts.
	fp := sp.footprint
	sys := &model.System[State]{
		Spec:    "hp",
		Variant: sp.p.Variant,
		Params:  sp.p,
		Procs:   n,
		Init:    []State{newState(n, sp.p.Claims, sp.maxRound+2)},
		Rules: []model.Rule[State]{
			{Name: "start", Ref: Ref + " BASIC (at the beginning each node sends)", Guard: sp.canStart, Do: sp.start, Label: sp.startLabel,
				Footprint: fp, Ready: notStarted},
			{Name: "recv", Ref: Ref + " BASIC, promotion by witness, promotion by distance", Guard: sp.hasMessage, Do: sp.recv, Label: sp.recvLabel,
				Footprint: fp, Ready: started},
		},
		Chans: sp.net.Semantics(),
		View: func(s *State) model.View {
			return model.View{Procs: invariants.ProcViews(sp.p.IDs, &s.Out), Chans: s.In.Views(sp.net)}
		},
		InTransit:   func(s *State, visit func(int, string, []byte)) { s.In.InTransit(sp.net, visit) },
		Measures:    sp.measures(),
		Termination: sp.termination(),
		Ends:        model.EveryEnd[State], // election-complete judges every terminal state
		Copy:        copyState,
		Encode:      encode,
		Decode:      decoder(n),
		Erase:       Erase,
		Vars:        func(s *State) []model.Var { return vars(sp.net, s) },
	}
	sys.Props = sp.properties(sp.winner())
	return sys
}

// rounds is the number of rounds the run has reached: one more than the
// largest message.rnd of an election message in transit and node.rnd of a
// started node (in variant witness-literal a message may enter a round that
// no node hosts).
func rounds(s *State) int {
	top := -1
	for i := range s.Started {
		if s.Started[i] {
			top = max(top, s.Rnd[i])
		}
		for _, m := range s.In[i].Messages() {
			if m.Kind == Elect {
				top = max(top, m.Rnd)
			}
		}
	}
	return top + 1
}

// canStart: an initiator starts spontaneously; any other node when a
// message reaches it.
func (sp *spec) canStart(s *State, i int) bool {
	return !s.Started[i] && (sp.p.IsInitiator(i) || s.In[i].Len() > 0)
}

// notStarted and started are the parts of start's and recv's guards that
// read only node i's own state (model.Rule.Ready).
func notStarted(s *State, i int) bool { return !s.Started[i] }
func started(s *State, i int) bool    { return s.Started[i] }

func (sp *spec) start(s *State, i, _ int) bool {
	s.Started[i] = true
	return sp.host(s, i, 0, sp.p.IDs[i])
}

func (sp *spec) startLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("start p%d (sends %v)", i, sp.hosted(0, sp.p.IDs[i]))
}

func (sp *spec) hasMessage(s *State, i int) bool { return s.Started[i] && s.In[i].Len() > 0 }

func (sp *spec) recvLabel(s *State, i, _ int) string {
	return fmt.Sprintf("recv p%d %v", i, s.In[i].Peek(sp.net.Sem, 0))
}

func (sp *spec) recv(s *State, i, _ int) bool {
	m := s.In[i].Recv(sp.net.Sem, 0)
	own := sp.p.IDs[i]
	if m.Kind == Announce {
		return !s.Out.Hear(i, m.ID, own) || sp.send(s, i, m)
	}
	rnd, id := s.Rnd[i], s.Label[i]
	outOfCounter := sp.distance(m.Rnd) && m.Counter == 1
	switch {
	case sp.counterFirst && outOfCounter:
		return sp.promoteByDistance(s, i, m)
	case m.Rnd == rnd && m.ID == id:
		s.Out.Learn(i, own, own)
		return sp.send(s, i, Msg{Kind: Announce, ID: own})
	case m.Rnd == rnd && sp.destroys(m.Rnd, m.ID, id):
		if sp.p.Claims {
			bump(s.Ghost.Destroyed, m.Rnd, sp.p.N)
		}
		return true
	case m.Rnd == rnd:
		return sp.host(s, i, m.Rnd+1, m.ID)
	case sp.witness(m.Rnd) && m.Rnd == rnd+1 && m.ID < id:
		if !sp.witnessSends {
			return sp.promote(s, i, m.Rnd+1, m.ID) // node.rnd and node.id unchanged
		}
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
}

// promoteByDistance: m's counter runs out at i, which promotes it and
// becomes its sender (003 Promotion by distance).
func (sp *spec) promoteByDistance(s *State, i int, m Msg) bool {
	if sp.p.Claims {
		bump(s.Ghost.ByDistance, m.Rnd, sp.p.N)
	}
	return sp.host(s, i, m.Rnd+1, m.ID)
}

// hosted is the message that a node sends as its sender in round rnd.
func (sp *spec) hosted(rnd, id int) Msg {
	m := Msg{Kind: Elect, Rnd: rnd, ID: id}
	if sp.distance(rnd) {
		m.Counter = fib(rnd + 2)
	}
	if sp.p.Claims {
		m.Hops = 1
	}
	return m
}

// host makes i the sender of (rnd, id): it starts or promotes the message.
func (sp *spec) host(s *State, i, rnd, id int) bool {
	s.Rnd[i], s.Label[i] = rnd, id
	return sp.promote(s, i, rnd, id)
}

// promote sends (rnd, id) from i as a message entering round rnd.
func (sp *spec) promote(s *State, i, rnd, id int) bool {
	if sp.p.Claims {
		bump(s.Ghost.Born, rnd, sp.p.N)
	}
	return sp.send(s, i, sp.hosted(rnd, id))
}

// send puts m on i's outgoing channel; with claims on it counts it.
func (sp *spec) send(s *State, i int, m Msg) bool {
	if !s.In.Send(sp.net, i, ring.Right, m) {
		return false
	}
	if g := &s.Ghost; sp.p.Claims {
		if m.Kind == Announce {
			g.Announced = min(g.Announced+1, sp.p.N+1)
		} else {
			g.Edges = min(g.Edges+1, sp.edgeCap())
			k := min(m.Rnd, len(g.EdgesIn)-1)
			g.EdgesIn[k] = min(g.EdgesIn[k]+1, sp.edgeCap())
		}
	}
	return true
}

// bump counts one more event of round rnd in a per-round ghost counter. A
// round past the bound lands in the last bucket, and no count exceeds n+1
// (no round has more than n messages), so that even a broken mutant keeps
// the ghosted state space finite.
func bump(counts []int, rnd, n int) {
	k := min(rnd, len(counts)-1)
	counts[k] = min(counts[k]+1, n+1)
}

// footprint is what every rule touches at process i (model.Footprint): i's
// own variables, its input channel, from which it receives, and its
// successor's, to which it sends; with claims on, the ghost. The start
// rule, which only waits on i's input channel (a non-initiator starts when
// a message reaches it), lists it too: it is enabled by a waiting message,
// and if it is enabled with the channel empty (an initiator) a message
// arriving there changes nothing it does.
func (sp *spec) footprint(i int) model.Footprint {
	f := sp.net.Footprint(i, true)
	f.Ghost = sp.p.Claims
	return f
}

// measures are the rounds a run reached and, with claims on, the election
// messages' edges (Ghost.Edges): what mc simulate counts messages by, where
// the exhaustive sweep counts the same sends off the View.
func (sp *spec) measures() []model.Measure[State] {
	ms := []model.Measure[State]{{Name: "rounds", Ref: Ref + " BASIC (rounds)",
		Doc:   "the rounds a run has reached, 0 included: one more than the largest round of a node or an election message",
		Value: rounds}}
	if sp.p.Claims {
		ms = append(ms, model.Measure[State]{Name: "election-messages", Ref: Ref + " Theorem 1 (1.271 n log n + O(n))",
			Doc:   "election messages sent in a run, each edge counted (the ⟨leader⟩ announcement apart)",
			Value: func(s *State) int { return s.Ghost.Edges },
			Reads: func(buf []byte, s *State) []byte { return model.AppendUint(buf, uint64(s.Ghost.Edges)) }})
	}
	return ms
}
