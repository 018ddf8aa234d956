package vlt

// fault is a deliberate bug that a test switches on to show that a claim
// can fail: mutation testing. New never switches one on.
type fault uint8

const (
	noFault fault = iota
	// relayKeepsID: a relaying processor passes ⟨v,p⟩ on but keeps its
	// old ID (2b omits "ID := v").
	relayKeepsID
	// chaseWithOwnID: a d-active processor chases with its own id instead
	// of the value in its ID register.
	chaseWithOwnID
	// maximaActiveToo: the phase-0 test also makes a local maximum active,
	// with its own id, towards its smaller neighbour.
	maximaActiveToo
	// chaseOwnValueOn: a processor whose own value comes back (v = ID)
	// chases it on, one phase higher, instead of inaugurating, until the
	// phase reaches the bound of Prop. 3.9.
	chaseOwnValueOn
	// noIDOnEqualCollision: the scan's code as printed: equal messages
	// inaugurate without ID := v1 (seeds README, "Known slips").
	noIDOnEqualCollision
	// activeKeepsBypass: §4 rule (i) left out: an active processor handles
	// a message that crossed its own like any other.
	activeKeepsBypass
	// bypassRuleOnlyAlone: §4 rule (i) applied only to a bypassed message
	// left alone after 2b's discards; one taken together with a message of
	// its phase from the other side goes into 2b's collision. This was the spec until mc simulate found
	// Lemma 3.3 (i) broken at n = 16 (doc.go, Findings).
	bypassRuleOnlyAlone
	// relayBothWays: a relaying processor sends ⟨v,p⟩ on both links.
	relayBothWays
	// extraPhase0: the phase-0 test sends ⟨u,0⟩ once more towards the
	// larger neighbour.
	extraPhase0
	// literalPhase0Test: the phase-0 test read literally: a local minimum
	// turns active even when a message waits on the link it must send on,
	// so its send waits for a link that never frees (seeds README).
	literalPhase0Test
	// collisionTowardLarger: two phase messages of different values
	// collide and the processor turns c-active, but sends the larger value
	// back towards the side it came from instead of towards the smaller's
	// (issue 22's mutant).
	collisionTowardLarger
	// dActiveStops: a message of the processor's phase with a smaller value
	// is stopped, as a larger one is, instead of making it d-active.
	dActiveStops
	// dActiveFollows: a d-active processor sends its phase message on in
	// the direction the smaller message was going, instead of back
	// towards where it came from.
	dActiveFollows
	// collisionTakesSmaller: two phase messages of different values
	// collide and the processor turns c-active with the smaller value
	// (colour), not the larger, sent towards the smaller's side.
	collisionTakesSmaller
	// relayKeepsPhase: a relaying processor passes ⟨v,p⟩ on and takes v,
	// but keeps its old PNUM (2b omits "PNUM := p").
	relayKeepsPhase
	// announcementBounces: a processor that already knows the outcome
	// sends the announcement back the way it came, instead of dropping
	// it, so that two such processors pass it to and fro for ever.
	announcementBounces
	// decisionReset: a processor that already knows the outcome and
	// hears the announcement decides afresh, as if it had won.
	decisionReset
)
