// Package hs is Hirschberg–Sinclair election on a bidirectional ring: a
// candidate tests its id against ever larger neighbourhoods, doubling the
// distance each phase. Two texts describe it: seed 002 §5.3 (Raynal, "The
// Hirschberg and Sinclair algorithm") and seed 004 (the probe / reply /
// terminate algorithm the textbook calls Bully). Variants:
//
//   - raynal (default): 002 §5.3 with its slip corrected: a candidate is
//     lost when some response was unfavourable.
//   - raynal-literal: 002 §5.3 as printed, "if respOK then state ← lost": a
//     candidate that won both comparisons gives up, one that lost goes on.
//     No leader is ever elected, and candidates that keep losing go on to
//     ever later phases.
//   - probe: 004, a probe of phase i travels 2^i hops out and its reply
//     travels back.
//
// Ring and ids: processes 0..n-1 with distinct positive ids. The ring has a
// common orientation, as both texts assume: 002 speaks of every process's
// left and right neighbours, 004 labels every processor's links CW and CCW
// and states that "processors agree on the orientation of the ring". Right
// (004's CW) leads from i to (i+1) mod n, Left (CCW) to (i−1) mod n
// (package biring).
//
// Links: full-duplex, one channel per direction; FIFO by default (--chan bag
// makes each channel a bag); unbounded unless --cap is given, in which case
// a send to a full channel blocks. 002's primitives: sendLR sends through
// both ports; pass sends a received message on through the other port;
// respond sends back through the port the message came from.
//
// One step is one action of one process, and a receive handles its message
// completely (both texts' "when received" / "process message" segments are
// atomic).
//
// # Variants raynal and raynal-literal (002 §5.3)
//
// State: per process 002's state (not_involved, candidate, lost, elected),
// lgmax (kept as i with lgmax = 2^i), nresp, respOK and winner (the
// leader's id in invariants.Outcome, "p2.leader"), and waiting,
// which is true while the candidate loop is blocked in "wait nresp = 2".
//
// Messages: ⟨candidature number lg lgmax⟩, ⟨response bool number⟩ (number
// addresses the candidate), ⟨ended number⟩.
//
//   - initiate(i) — "when decision (initiate_election)": enabled when i is
//     an initiator, not_involved and knows no winner (it has taken no part in
//     this election). state ← candidate; lgmax ← 1; nresp ← 0; respOK ← T;
//     sendLR ⟨candidature id(i) 0 1⟩; waiting.
//   - resume(i) — the loop after "wait nresp = 2": enabled when waiting and
//     nresp = 2. raynal: if not respOK then state ← lost; raynal-literal: if
//     respOK then state ← lost. While state = candidate the loop goes round
//     again: lgmax ← 2·lgmax, nresp ← 0, respOK ← T, sendLR. The loop is a
//     thread of its own, so resume is a step apart from the receive that
//     brought the second response: other messages may be handled between.
//   - recv(i) — "when received", one message from either input channel:
//     ⟨response b j⟩, j = id(i): nresp ← nresp+1, respOK ← respOK ∧ b;
//     j ≠ id(i): pass.
//     ⟨candidature j lg m⟩, j < id(i): respond ⟨response F j⟩, and if i is
//     not_involved it initiates (as initiate(i), in the same step; the
//     handwritten note: "initiates election if it is larger").
//     j > id(i): state ← lost; lg ← lg+1; if lg < m pass the candidature on,
//     else respond ⟨response T j⟩.
//     j = id(i): if not yet elected, state ← elected, winner ← id(i), and
//     pass ⟨ended id(i)⟩ (through the port opposite the arrival).
//     ⟨ended j⟩: if winner ≠ j: pass it, winner ← j, state ← not_involved;
//     back at the winner it stops.
//
// Decisions (p2.decided): leader when elected; lost when ⟨ended⟩ brings
// another id. 002's state lost is not a decision, since ⟨ended⟩ turns it
// back into not_involved.
//
// Reading the scan: the handler header "(candidature, number, lgmax)" omits
// lg, which the message carries and the body uses ("lmax" is lgmax); the
// text says candidate and candidature, nbresp and nresp, for one thing
// each. "lgmax ← lgmax * 2" also runs after the candidate lost, where its
// value is never read again; the model doubles lgmax only when the loop
// goes round again.
//
// Dead values (exact reductions): once a process stops being a candidate
// its lgmax is never read again before initiate resets it, so it is reset
// to 1 at once; nresp and respOK are read only while the loop waits, so
// resume resets them, and a response that reaches a process that is not
// waiting leaves them alone (the seed counts it, then resets the count
// before reading it). Dropping dead values merges states that behave
// identically; the state counts the tests pin are those of this model.
//
// ⟨ended⟩ makes a process not_involved again, so read literally a late
// smaller candidature could make it start a new election. With FIFO
// channels mc finds that this never happens (every arrangement of n ≤ 5;
// a test checks it as a step property). With --chan bag it does: a loser
// that learnt the winner starts anew, a stale favourable response of its
// earlier candidacy counts for the new phase, and it enters phase 1 next to
// the maximum, against Lemma 13.9 (ids 3,2,1, 27 steps).
//
// # Variant probe (004)
//
// State: per processor asleep, CWreplied and CCWreplied, and leader (NIL,
// TRUE, FALSE: the decision undecided, leader, lost). ⟨terminate⟩ carries
// no id, so a processor learns that it lost, not who won: election-complete
// asks every processor to have decided.
//
// Messages: ⟨probe ids phase ttl⟩, ⟨reply ids phase⟩, ⟨terminate⟩.
//
//   - wake(i) — lines 6–8: enabled when i is an initiator and asleep.
//     asleep ← FALSE; send ⟨probe id(i) 0 0⟩ to CW and CCW (i enters phase
//     0).
//   - recv(i) — lines 9–31, one message from either input channel. An asleep
//     processor first does lines 6–8: it wakes up at the latest when its
//     first message arrives. 004 says every processor eventually executes
//     them but not whether an asleep one handles messages; waking on the
//     first message is the usual convention for the algorithm. Letting an
//     asleep processor relay and answer probes, and wake any time later,
//     multiplies the states by about 160 at n = 5 (911,092 against 5,614
//     for ids 5,4,3,2,1); checked once for every arrangement of n ≤ 4 (no
//     test pins it), that reading kept the election properties and the
//     phase and message claims. Then:
//     ⟨probe j ph ttl⟩ (lines 9–17): j = id(i) and leader = NIL: send
//     ⟨terminate⟩ to CCW, leader ← TRUE; j > id(i) and ttl > 0: pass it on
//     through the other link with ttl − 1; j > id(i) and ttl = 0: send
//     ⟨reply j ph⟩ back through the link it came by; otherwise it is
//     swallowed (a smaller id, or the leader's own second probe).
//     ⟨reply j ph⟩ (lines 18–26): j ≠ id(i): pass it on; j = id(i): set
//     CWreplied or CCWreplied after the link it came by, and once both are
//     set clear them and enter phase ph+1: send ⟨probe id(i) ph+1 2^{ph+1}−1⟩
//     to CW and CCW.
//     ⟨terminate⟩ (lines 27–31, it always arrives on CW): if leader = NIL,
//     send it on to CCW and set leader ← FALSE; otherwise it stops.
//
// TERMINATE does not stop a processor: "the processor may still process
// messages after termination", and it does (it relays the leader's second
// probe, for instance).
//
// Reconstructions: the ttl formula is lost in the scan. The phase-0 probe is
// printed as ⟨probe, id, 0, 0⟩ and a probe with ttl 0 is replied to by the
// processor that receives it, so ttl counts the hops left after the first:
// phase i sends ttl 2^i − 1 and the probe travels 2^i hops out. The segment
// of lines 18–26 is printed as "1–26".
//
// # Phases
//
// From phase ⌈log₂ n⌉ on, the hop limit 2^i is at least n: the maximum's
// message comes back to it round the ring, and every other one meets a
// larger id before its limit, so no process should enter a later phase. A
// wrong model (raynal-literal, or a mutant) may go on forever; to keep the
// state space finite the model numbers phases up to ⌈log₂ n⌉+1 and merges
// every later phase into that one. Phases from ⌈log₂ n⌉ on behave alike, so
// the merge is exact, and the phases-bounded claim still sees a process
// enter phase ⌈log₂ n⌉+1.
//
// # Claims
//
// With --claims a ghost records the phases each process entered, the
// election messages sent (candidatures and responses, or probes and
// replies, each hop counted) and, apart, the announcement's (⟨ended⟩ or
// ⟨terminate⟩). Its counters saturate one above what the claims allow, so
// that a looping model stays finite. The claims:
//
//   - phase-entrants-bound: at most ⌊n/(2^{i−1}+1)⌋ processes enter phase
//     i ≥ 1 (004 Lemma 13.9; 002 §5.3's count of candidates);
//   - phases-bounded: none enters a phase after ⌈log₂ n⌉;
//   - election-messages-bound: at most ⌊8n(1 + log₂ n)⌋ election messages
//     (002 §5.3; the announcement is not counted);
//   - messages-on-their-paths (variants raynal, raynal-literal): each
//     message in transit is where 002 §5.3's count of a candidature's
//     messages puts it: a candidature at most 2^i hops out, a response on
//     its way back within 2^i hops (onPathsClaim);
//   - announcement-messages-bound and announcement-messages: the
//     announcement takes exactly n messages.
//
// Every claim meets its situation at n = 4 (ids 4,3,2,1: the maximum goes
// through every phase up to ⌈log₂ 4⌉ = 2) in variants raynal and probe,
// and passes there (TestClaimsMeetTheirSituation, issue 35). In
// raynal-literal no one is elected, so the announcement never happens, and
// the other claims fail.
package hs

import "github.com/ringcheck/mc/model"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "raynal", Doc: "002 §5.3 with the slip corrected: a candidate is lost when some response was unfavourable"},
	{Name: "raynal-literal", Doc: "002 §5.3 as printed: \"if respOK then state ← lost\""},
	{Name: "probe", Doc: "004's probe / reply / terminate algorithm; a probe of phase i travels 2^i hops out"},
}

// Ref is the seed section the spec comes from; RefRaynal and RefProbe are
// each variant's.
const (
	Ref       = "002 §5.3; 004"
	RefRaynal = "002 §5.3"
	RefProbe  = "004 (Bully, phases)"
)

// Build instantiates the variant p selects, for the registry: 002's
// (raynal, raynal-literal) or 004's (probe); the other system is nil.
func Build(p model.Params) (*model.System[RaynalState], *model.System[ProbeState], error) {
	variant, err := model.PickVariant("hs", Variants, p.Variant)
	if err != nil {
		return nil, nil, err
	}
	p.Variant = variant
	if variant == "probe" {
		sys, err := NewProbe(p)
		return nil, sys, err
	}
	sys, err := NewRaynal(p)
	return sys, nil, err
}
