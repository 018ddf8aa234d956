// Package vitanyi is Vitányi's clock-based election on a unidirectional
// ring (seed 001 §2, "Decentralized leader finding using clocks"). It elects
// the LOWEST id. Its correctness does not depend on timing; its message
// count does: linear in N when clocks and delays keep a bounded ratio (an
// "Archimedean" ring), up to quadratic when they do not (§3).
//
// Ring and ids: processors 0..n-1 in clockwise order; processor i reads from
// its anticlockwise neighbour over In[i] and sends to its clockwise
// neighbour, into In[i+1]. Ids are distinct positive integers, processor 0's
// first. An election message M_j is held f(j) = 2^j local time units, so
// timers run up to 2^(largest id): keep the ids small, 1..n (New refuses a
// timer above 4096).
//
// Messages (§2): ⟨wakeup⟩, ⟨M j⟩ (the election message M_j) and ⟨sleepwell⟩
// (it carries no id). msgBits gives their lengths: 1, the dyadic length of
// j, 1.
//
// Links: unbounded FIFO queues. FIFO is what makes a wakeup reach a
// processor before the election messages behind it, and the sleepwell come
// after them; --chan bag and --cap are refused.
//
// State per processor: its Phase (asleep, awake, announced, finished,
// slept), k (the lowest id seen), timer and input link; with bounded drift
// also Passed and the drift counters Ahead (below). "Elected One" is k from
// the moment the processor goes back to sleep (State.ElectedOne).
//
// One step is one action of one processor:
//
//   - wake(i) — "Processes awake spontaneously": an asleep initiator
//     (--initiators, default all) runs the Protocol's opening: "Send wakeup
//     message to clockwise neighbor; Set k equal to i and set timer equal
//     to 1". It is not a tick: the adversary picks the moments of prodding.
//   - recv(i) — one local time unit of i that reads the message M at the
//     head of In[i] ("REPEAT IN EACH (LOCAL) TIME UNIT: Read incoming
//     message M"):
//     asleep, M = ⟨wakeup⟩: i wakes up ("in any event when they receive a
//     wakeup message") and runs the opening as in wake;
//     awake, ⟨sleepwell⟩: Elected One ← k, pass it on, go asleep (slept);
//     awake, ⟨M j⟩ with j = k: Elected One ← k (k = id(i)), send
//     ⟨sleepwell⟩, go asleep (announced);
//     awake, ⟨M j⟩ with j < k: k ← j, timer ← f(j); the message i held dies
//     ("a lower numbered message overtaking a higher numbered message
//     annihilates it");
//     awake, ⟨M j⟩ with j > k: M_j dies ("a message with a higher number
//     meets a lower numbered processor"); timer ← timer − 1, and if it
//     reaches 0, send ⟨M k⟩;
//     awake, ⟨wakeup⟩: nothing (see Readings);
//     announced, ⟨sleepwell⟩: "the election is finished" (finished).
//   - tick(i) — one local time unit of i in which no message is read: "if no
//     message is received in this time unit then assume M = M_j with j > i",
//     so an awake i counts down as above. Enabled when In[i] is empty, or
//     when the message at its head has not arrived yet (rule 2 says how
//     long that may last).
//
// Time. Each processor's local time unit is one action, recv(i) or tick(i).
// A processor runs — its clock counts for the rules below — while it is
// awake, while it is the announced Elected One waiting for its sleepwell,
// and while it is asleep with a wakeup waiting (its next tick reads it).
// Slept and finished processors do not tick.
//
// Unbounded drift, --drift 0 (the default): ticks interleave freely and a
// message may stay unread through any number of its receiver's ticks. This
// is pure asynchrony: any clock rates, any finite delays.
//
// Bounded drift, --drift K with K ≥ 1, is §2's Archimedean ring ("the ratio
// of the time intervals between the ticks of the clocks of any pair of
// processors, and the ratio between the communication delay … and the time
// interval between the ticks of the clock of any processor, is bounded by a
// fixed integer"), K being that integer. Only schedules that obey two rules
// are explored:
//
//   - Rule 1 (clock ratio): no processor completes more than K ticks while
//     another running processor completes none. Ahead[i][j] counts the
//     ticks i completed since j last ticked (or since both run); a tick of i
//     needs Ahead[i][j] < K for every other running j, adds 1 to every
//     Ahead[i][j] and zeroes every Ahead[j][i].
//   - Rule 2 (delay): a message is read within K ticks of its receiver from
//     the moment it reaches the head of the receiver's link. Passed[i]
//     counts the ticks of i that left the head unread; a tick may leave it
//     unread only while Passed[i] < K − 1. With K = 1 every tick reads what
//     is waiting: a synchronous ring without delays.
//
// The counters are relative (ticks since another processor's last tick,
// each from 0 to K), never absolute clocks, and counters of processors that
// do not run are zero, so the state space is finite. They bound the ratio of
// clock rates, as the Archimedean axiom does, not the skew between clocks: a
// bound on "ticks ahead of the slowest" would forbid two clocks to run at
// different rates for long, which the paper allows.
//
// Stutter steps: a tick that would change nothing — no timer to count down,
// no drift counter to move — is not an action. With unbounded drift such a
// tick is a self-loop; leaving it out changes no reachable state.
//
// Termination. The spec declares a termination measure after §2's argument
// (termination.go): mc checks that every transition decreases it, so the
// finite state graph has no cycle and every run ends in a terminal state,
// where election-complete holds; eventually-leader and election-terminates
// are decided without storing the graph. Only stutter ticks are left out;
// a run that idles forever while a message waits unread is unfair to that
// message, and the paper's delays are finite ("Still, all such delays are
// finite", §1).
//
// Properties: at-most-one-leader, leader-is-min, decision-stable,
// hammer-and-anvil (once the Elected One announces, M_l has set every k to
// l and "all messages have been smashed between hammer and anvil"),
// election-complete (an end property: every terminal state has everyone
// asleep, Elected One = the lowest id, nothing in transit; so no deadlock)
// and leader-elected. With --claims, ghosts count the messages and bits
// sent; mc reports their maximum over all runs (the measures messages and
// bits) and checks the message claims in count.go: Le Lann's quadratic cap
// for every timing, reached under unbounded drift with the ids ascending
// clockwise (§3's placement); under bounded drift, §2's bounds (2) on
// messages and bits with u/m read as K, and for variant scaled §3's 5N.
// Each claim meets its situation and passes at n = 4: the cap and its
// witness with ids 1,2,3,4 and unbounded drift, the bounds with ids
// 4,3,2,1 and drift 1 in both variants (TestClaimsMeetTheirSituation,
// issue 35).
//
// Variants: pow2 (default), f(j) = 2^j; scaled, §3's f(j) = (u/m)·2^j with
// u/m read as K, so it needs --drift K ≥ 1.
//
// Readings of the text:
//
//   - "assume M = M_j with j > i": since k ≤ i, j > k; the j > k branch runs.
//   - A wakeup read by an awake processor (two processors woke on their own)
//     matches no branch of the Protocol: it is consumed and nothing else
//     happens in that time unit; the timer does not count down.
//   - A timer below 0 only decreases until it is reset and never reaches 0
//     again, so all values ≤ 0 are kept as 0: exact, not an abstraction.
//   - The OCR drops the "end" of the j = k branch; the branches are the
//     if-chain the indentation shows.
//   - The announced Elected One reads and ignores anything but its
//     sleepwell; hammer-and-anvil shows that nothing else ever reaches it.
//   - §3's adversarial schedule is garbled after "Place furthermore the
//     processors, in ascending order, clockwise around the ring"; with the
//     ids ascending clockwise and unbounded drift mc reaches N(N+1)/2
//     election messages, the most the algorithm can send.
//   - The bit bound writes log i for the length of M_i, which is 0 for
//     i = 1 although M_1 takes a bit; bits-within-bound uses the dyadic
//     length. With log2 i as printed the bound fails (ids 1,2,3,4, K = 1:
//     17 bits against 14.88).
//   - §3's "2N + 2N(1 + 1/f(l)) < 5N" for f(i) = u2^i/m does not follow from
//     (2): for that f, (2) only gives 2N + 2N·u/m + N·2^(1−l), which grows
//     with u/m. The checker tests the 5N claim itself (messages-below-5n).
//
// Feasible sizes. The drift counters multiply the states: with the ids
// ascending (descending), mc check explores n = 3 with K = 3 in 89,782
// (55,678) states; n = 4 with K = 0, 1, 2 in 19,009 (3,001), 3,206 (2,250)
// and 1,698,978 (597,570) states, seconds at most; n = 4 with K = 3 in
// 14,212,802 states descending, but more than 36 million ascending; n = 5
// with K = 0 and 1 in 877,364 (20,140) and 49,980 (30,392) states. n = 5
// with K = 2 is out of reach: 10 million states do not get past depth 9.
package vitanyi

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "pow2", Doc: "001 §2: a message M_j is held f(j) = 2^j local time units"},
	{Name: "scaled", Doc: "001 §3: f(j) = (u/m)·2^j with u/m read as the drift bound K (needs --drift K ≥ 1)"},
}

// Ref is the seed section the spec comes from.
const Ref = "001 §2"

// Limits that keep the state space explicit: timers run to f(max id).
const (
	maxHold  = 1 << 12
	maxDrift = 64
)

type spec struct {
	p     model.Params
	n     int
	ids   []int
	drift int
	// hold[j] is f(j), for every id j in the ring.
	hold []int
	// leader is the processor with the lowest id, which must be elected.
	leader int
	// net is the unidirectional ring, its channels FIFO and unbounded.
	net ring.Net
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	_, sys, err := buildSpec(p)
	return sys, err
}

// buildSpec returns the system and the spec behind its rules, which tests use
// to build mutants.
func buildSpec(p model.Params) (*spec, *model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	variant, err := model.PickVariant("vitanyi", Variants, p.Variant)
	if err != nil {
		return nil, nil, err
	}
	p.Variant = variant
	if p.Chan != model.FIFO || p.Cap != 0 {
		return nil, nil, fmt.Errorf("vitanyi needs unbounded FIFO links (a wakeup must reach a processor before the messages behind it): --chan bag and --cap are not supported")
	}
	if p.Drift > maxDrift {
		return nil, nil, fmt.Errorf("vitanyi: --drift must be at most %d, got %d", maxDrift, p.Drift)
	}
	scale := 1
	if variant == "scaled" {
		if p.Drift == 0 {
			return nil, nil, fmt.Errorf("vitanyi: variant scaled sets f(j) = (u/m)·2^j with u/m read off --drift K, so it needs --drift K ≥ 1")
		}
		scale = p.Drift
	}
	if top := p.MaxID(); top > 30 || scale<<top > maxHold {
		return nil, nil, fmt.Errorf("vitanyi: M_%d would be held f(%d) > %d local time units; keep the ids small (1..n)", top, top, maxHold)
	}
	sp := &spec{p: p, n: p.N, ids: p.IDs, drift: p.Drift, hold: make([]int, p.MaxID()+1), net: ring.Net{Ring: ring.Ring{N: p.N}}}
	for i, id := range p.IDs {
		sp.hold[id] = scale << id
		if id < p.IDs[sp.leader] {
			sp.leader = i
		}
	}
	sys := &model.System[State]{
		Spec:    "vitanyi",
		Variant: variant,
		Params:  p,
		Procs:   p.N,
		Init:    []State{newState(p.N, p.Drift > 0)},
		Rules: []model.Rule[State]{
			{Name: "wake", Ref: Ref + ": processes awake spontaneously", Guard: sp.canWake, Do: sp.wake, Label: sp.wakeLabel, Footprint: sp.wakeFootprint},
			{Name: "recv", Ref: Ref + ": read incoming message M", Guard: sp.canRecv, Do: sp.recv, Label: sp.recvLabel, Footprint: sp.footprint},
			{Name: "tick", Ref: Ref + ": if no message is received in this time unit", Guard: sp.canIdle, Do: sp.idle, Label: sp.idleLabel, Footprint: sp.tickFootprint},
		},
		Chans:  sp.chans(),
		Props:  sp.properties(),
		Ends:   model.EveryEnd[State], // election-complete judges every terminal state
		Copy:   copyState,
		Encode: encode,
		Decode: decoder(p.N, p.Drift > 0),
		Erase:  Erase,
		Vars:   vars(p.Drift > 0, p.Claims),
	}
	sys.Termination = sp.termination()
	if p.Claims {
		sys.Measures = measures()
	}
	return sp, sys, nil
}

// send puts m on i's link to its clockwise neighbour; with claims on it
// counts the message and its bits.
func (sp *spec) send(s *State, i int, m Msg) {
	s.In.Send(sp.net, i, ring.Right, m)
	if sp.p.Claims {
		s.Ghost.Messages++
		s.Ghost.Bits += msgBits(m)
	}
}

// wakeUp is the Protocol's opening: "Send wakeup message to clockwise
// neighbor; Set k equal to i and set timer equal to 1".
func (sp *spec) wakeUp(s *State, i int) {
	s.Phase[i], s.K[i], s.Timer[i] = Awake, sp.ids[i], 1
	sp.send(s, i, Msg{Kind: Wakeup})
}

// canWake: an asleep processor may wake up spontaneously if it is an
// initiator.
func (sp *spec) canWake(s *State, i int) bool {
	return s.Phase[i] == Asleep && sp.p.IsInitiator(i)
}

func (sp *spec) wake(s *State, i, _ int) bool {
	sp.wakeUp(s, i)
	sp.settle(s)
	return true
}

// canRecv: a tick of i reads the message at the head of In[i]. An asleep
// processor reads only a wakeup (links are FIFO, so nothing else can reach
// it first).
func (sp *spec) canRecv(s *State, i int) bool {
	if !running(s, i) || !sp.mayTick(s, i) {
		return false
	}
	ms := s.In[i].Messages()
	return len(ms) > 0 && (s.Phase[i] != Asleep || ms[0].Kind == Wakeup)
}

func (sp *spec) recv(s *State, i, _ int) bool {
	sp.countTick(s, i)
	m := s.In[i].Recv(model.ChanSemantics{}, 0)
	s.Passed[i] = 0
	switch s.Phase[i] {
	case Asleep: // a wakeup: the Protocol starts
		sp.wakeUp(s, i)
	case Announced:
		if m.Kind == Sleepwell { // "the election is finished"
			s.Phase[i] = Finished
		}
	case Awake:
		sp.react(s, i, m)
	}
	sp.settle(s)
	return true
}

// react is one time unit of the Protocol of an awake processor that reads m.
func (sp *spec) react(s *State, i int, m Msg) {
	switch {
	case m.Kind == Wakeup: // no branch of the Protocol applies
	case m.Kind == Sleepwell: // Elected One ← k; pass it on; go asleep
		s.Phase[i] = Slept
		sp.send(s, i, m)
	case m.ID == s.K[i]: // its own M is back: Elected One ← k; announce
		s.Phase[i] = Announced
		sp.send(s, i, Msg{Kind: Sleepwell})
	case m.ID < s.K[i]: // a lower M: hold it f(j) units; the held one dies
		s.K[i], s.Timer[i] = m.ID, sp.hold[m.ID]
	default: // a higher M dies here; the unit counts down
		sp.countDown(s, i)
	}
}

// countDown is "timer ← timer − 1; if timer = 0 then send M_k". A timer at
// 0 has passed its message on already and stays 0 (State.Timer).
func (sp *spec) countDown(s *State, i int) {
	if s.Timer[i] == 0 {
		return
	}
	s.Timer[i]--
	if s.Timer[i] == 0 {
		sp.send(s, i, Msg{Kind: Elect, ID: s.K[i]})
	}
}

// canIdle: a tick of i in which no message is read, either because none is
// waiting or because the head has not arrived yet (rule 2). A tick that
// would change nothing at all is a stutter step and is not an action.
func (sp *spec) canIdle(s *State, i int) bool {
	if !running(s, i) || !sp.mayTick(s, i) || !sp.mayPassOver(s, i) {
		return false
	}
	counts := s.Phase[i] == Awake && s.Timer[i] > 0
	return counts || (sp.drift > 0 && (s.In[i].Len() > 0 || othersRun(s, i)))
}

func (sp *spec) idle(s *State, i, _ int) bool {
	sp.countTick(s, i)
	if s.In[i].Len() > 0 {
		s.Passed[i]++
	}
	if s.Phase[i] == Awake { // "assume M = M_j with j > i"
		sp.countDown(s, i)
	}
	sp.settle(s)
	return true
}

func (sp *spec) wakeLabel(_ *State, i, _ int) string {
	return fmt.Sprintf("wake p%d (spontaneously; sends ⟨wakeup⟩)", i)
}

func (sp *spec) recvLabel(s *State, i, _ int) string {
	return fmt.Sprintf("recv p%d %v", i, s.In[i].Messages()[0])
}

func (sp *spec) idleLabel(s *State, i, _ int) string {
	if s.In[i].Len() > 0 {
		return fmt.Sprintf("tick p%d (%v not arrived yet)", i, s.In[i].Messages()[0])
	}
	return fmt.Sprintf("tick p%d (no message)", i)
}
