package hp

// Bounds on rounds and counters.
//
// The model has no abstraction: rounds, counters and labels are kept
// exactly. It is finite because every run is. On a unidirectional ring with
// unbounded FIFO channels each process is deterministic and reads one
// channel, so by Kahn's argument every run computes a prefix of one and the
// same history per process; a run that reaches a terminal state has
// computed all of it, so when mc finds a terminal state (election-complete,
// leader-elected) every run is finite, and the reachable states are
// finitely many. (A bound on the channels only adds blocking.) The same
// argument makes the winner and every ghost count at the end a function of
// the arrangement; in the variants that terminate the ghosts add no states
// at all (the tests pin equal counts with claims off and on).
//
// Rounds are bounded as follows, and round-bound checks it in every state.
// BASIC has n messages in round 0 and destroys at least one in every round
// with two or more (003 "Correctness", checked by round-destroys-one), so
// the last message is alone by round n-1 and comes back to its sender in
// that round: rnd ≤ n-1. Promotion by witness only promotes a message that
// BASIC would promote further on (003), so the same bound holds. Promotion
// by distance may let a round pass without destroying any message, but only
// while F(i+2) < n: from the first round i₀ with F(i₀+2) ≥ n on, a message
// meets the next node of its round, at most n edges on, before its counter
// runs out, and rounds destroy again as in BASIC: rnd ≤ i₀ + n - 1.
//
// ELECT (variants elect and elect-literal) has the tighter bound of the
// proof of 003 Theorem 1: "number of messages alive in round i is at most
// n/F_i. Therefore ELECT uses at most F⁻¹(n) + O(1) rounds". Let i* be the
// first odd round with 2·F_{i*} > n. At most n/F_{i*} < 2 messages enter
// round i* (theorem-1-odd-round-messages, with --claims), so the one that
// does is alone: only its host has node.rnd = i*, and its counter
// F_{i*+2} ≥ 2·F_{i*} > n does not run out within the n edges back to its
// host, which recognises it in round i*. So rnd ≤ i*, the O(1) of the
// seed is 0: if F⁻¹(n) is the least t with F_t ≥ n, then i* ≤ F⁻¹(n) (for t
// odd, F_t ≥ n makes 2·F_t > n; for t even, 2·F_{t-1} > F_{t-1} + F_{t-2} ≥
// n). round-bound checks the smaller of i* and i₀ + n - 1 (the latter is
// the smaller only for n = 2).

// fib is the Fibonacci number F_t, F_1 = F_2 = 1.
func fib(t int) int {
	a, b := 0, 1
	for range t {
		a, b = b, a+b
	}
	return a
}

// roundBound is the largest round a message or node may reach.
func (sp *spec) roundBound() int {
	n := sp.p.N
	if !sp.distance(1) {
		return n - 1
	}
	i0 := 0
	for fib(i0+2) < n {
		i0++
	}
	if !sp.witness(2) {
		return i0 + n - 1
	}
	return min(i0+n-1, loneOddRound(n))
}

// fibInverse is F⁻¹(n), the least t with F_t ≥ n.
func fibInverse(n int) int {
	t := 1
	for fib(t) < n {
		t++
	}
	return t
}

// loneOddRound is i*, the first odd round i with 2·F_i > n: at most one
// message enters it in ELECT, and ELECT ends in it (see above).
func loneOddRound(n int) int {
	i := 1
	for 2*fib(i) <= n {
		i += 2
	}
	return i
}

// edgeCap is where the ghost edge counter saturates: no round's messages
// traverse more than n edges each, so a correct run stays far below it; it
// only keeps the ghosted state space of a broken mutant finite.
func (sp *spec) edgeCap() int {
	n := sp.p.N
	return n * n * (sp.maxRound + 2)
}
