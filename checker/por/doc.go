// Package por is partial-order reduction. With checker.Options.Reduce
// (mc check --por) each state s is expanded by an ample set T ⊆ enabled(s)
// instead of every enabled action (Peled's ample sets; Godefroid's
// persistent sets; Clarke, Grumberg & Peled, Model Checking, ch. 10).
// Actions are grouped by rule and process; group g's footprint
// (model.Footprint) says what its actions may touch. T is always the
// enabled actions of a set G of groups, and is chosen to satisfy:
//
// C0, non-emptiness: T is empty only when s is terminal.
//
// C1, dependency closure: G is closed under these rules (Reducer), for
// each group g in G: (a) G holds the groups of g's process, the other
// receivers from g's receive channels, the other senders to g's send
// channels, every shared group if g is shared, and every ghost-writing
// group if g writes ghosts (the ghosts count as one shared variable);
// (b) G holds the senders to g's receive channels, unless g is enabled and
// receives from exactly one channel, a FIFO one, or g's rule is not Ready
// in s (model.Rule.Ready: disabled by its process's own variables); if the
// system gives ChanLen, only the senders to g's bags and to its FIFO
// channels that are empty in s; (c) G
// holds the receivers from g's bounded send channels if a send of g is
// blocked in s. Then an action b outside G, taken before any action of G,
// neither conflicts with an action of G nor changes what G can do: they
// touch disjoint variables except in the one case below; b cannot touch
// g's process's locals (a), so cannot make a rule Ready; it cannot change
// the oldest message of g's FIFO channel, which is there since g is
// enabled or the channel is not empty, nor add a message to a bag g
// receives from (b); it cannot make
// room in a channel g is blocked on (c). So T is persistent:
// every action on a path from s that avoids T is independent of every
// action of T in the state where it is taken (Godefroid 1996, Def. 4.1).
// CheckFootprints verifies these facts on small instances.
//
// A send to and a receive from one FIFO channel, by different processes,
// commute whenever both are enabled, and mc exploits this: the receive is
// enabled only if the channel is non-empty, so it takes the oldest message,
// which an append does not touch; a send to a bounded channel is enabled
// only if there is room, which a receive only increases. This is SPIN's
// exclusive-send/exclusive-receive argument (Holzmann & Peled 1994). The
// send may enable the receive when the channel is empty; rule (b) covers
// that. A bag is different: a new message is a new receive choice, which
// conflicts with the receiver's others, so a bag's receiver is closed with
// its senders by (b), and rings of bags reduce little. (For a bag, an
// action is the receipt of one message value, not a choice index, which
// shifts as messages arrive.)
//
// C2, invisibility: if T ≠ enabled(s), no action of T changes the
// variables that the invariant, step and witness properties, the liveness
// properties checked (see Liveness below) and the measures read
// (Property.Reads, Measure.Reads: whole variables, such as
// a process's local, a channel, a ghost).
// Only the system's own properties count, so ghost variables are visible
// only when --claims turns on the claims that read them. End properties
// do not count: terminal states are kept exactly (below). Visibility is
// decided on the action as taken in s, which is sound because it persists
// (lemma V): if α ∈ T leaves the read variables unchanged in s, it leaves
// them unchanged in every state t reached from s by actions outside T,
// since those actions write nothing α reads or writes (C1) except the tail
// of α's FIFO receive channel and the head of its send channels, and α's
// effect on its own variables is the same function of what it reads; and
// if α appends to or takes from a channel that is read, it is visible in s
// already. A property may also read a function of one process's locals, or
// a sum over the messages in transit of a per-message number (model
// Property.Reads): α changes the first as a function of what it reads, and
// the second by the numbers of the messages it takes and sends, so lemma V
// holds for them too.
// Checking instead that α does not change the truth of any property in s
// would be unsound: with an invariant ¬(x=1 ∧ y=0), α: y:=1 and an
// independent β: x:=1, α changes no truth value in x=y=0, T={α} is
// persistent, and the reduced graph x=y=0 → (0,1) → (1,1) misses (1,0).
//
// C3, proviso: if T ≠ enabled(s), some successor by T is either not yet
// stored or was stored after s (has a greater index), so the store keeps
// each state's index. In a cycle of the reduced graph some edge leads to a
// state stored no later than its source (in breadth-first order, a back
// edge leads to a level up to its source's, all stored before the source's
// level was expanded); that source is expanded in full unless another of
// its ample successors is later. The proof below needs only this. It is
// weaker than the usual breadth-first proviso (every ample successor new),
// which expands in full every state whose ample successor another path
// already reached: on Chang–Roberts, descending ids, n = 10, that stores
// 25,088 states where this stores 14,847. When s's
// level is expanded, the store holds every state of the levels up to s's
// (a level is committed before it is expanded) and those of the next level
// committed by earlier rounds; a successor not stored then gets an index
// greater than s's. The disk store cannot give indices; reduction is
// refused with it. Checkpoints save them (format 7), and a resumed run
// restores them, so it makes the choices an uninterrupted run makes.
//
// Soundness. Let R be the states stored by a complete reduced run. For a
// stored s and a path s -β1…βk-> t of the full system, by induction on k
// and then on the number of states stored after s:
//
//   - Deadlocks (end properties): if t is terminal, t is stored. If s is
//     expanded in full, β1(s) is stored and the path from it is shorter.
//     Otherwise some βi is in T: an action of T stays enabled along a path
//     that avoids T (C1) and t enables nothing. With i the first, βi
//     commutes to the front (C1), giving a shorter path from βi(s) ∈ R to
//     the same t. So R holds exactly the reachable terminal states, and
//     checker.Result.Terminal equals the full run's.
//   - Invariants and witnesses: some t' ∈ R agrees with t on the read
//     variables. Full expansion, or some βi in T: as above. Otherwise pick
//     α ∈ T with α(s) later than s (C3); α commutes with every βj (C1),
//     so α(s) -β1…βk-> α(t), and α(t) agrees with t (C2 and lemma V);
//     α(s) ∈ R starts a path of the same length k and has fewer states
//     stored after it, so the induction applies. Hence a violated
//     invariant is violated, and a witness satisfied, in a stored state,
//     and a measure's maximum is taken in a stored state.
//   - Step properties: they must hold on every step that leaves their
//     variables unchanged, and depend only on those variables and the
//     action's rule and process (model.Property.Reads). mc checks them on
//     every action it computes, which includes the ample set's. For a
//     violating step x -γ-> y after s -β1…βk-> x: if s is expanded in
//     full, the step is checked at s when k = 0, and the prefix shortens
//     otherwise; if some βi is in T, the prefix shortens as above. If γ is
//     in T and no βi is, γ is invisible at s (C2), so at x (lemma V), and
//     cannot violate the property. Otherwise α as above carries the whole
//     path to α(x) -γ-> α(y), which agrees with x -γ-> y on the variables
//     read, so violates the property too, from the later α(s).
//
// Every stored state is reachable and every trace is replayed, so a
// failure under reduction is real; but its trace need not be shortest (mc
// check --shortest re-runs without reduction, bounded, to find one).
//
// Liveness. "Eventually Q" and "P leads to Q" are decided under reduction
// only for a spec with a termination measure (checker.CanReduce), and only
// if the measure decreases on every transition the reduced run computes,
// which include the edges of the reduced graph R (the ample sets'); else
// the state graph of the full system decides, as without reduction. P and
// Q are visible (C2): their Reads count, except for a goal "a terminal
// state". The argument needs C0, C1 and C2, not C3:
//
//   - Every full run is finite. If a stored s starts an infinite path
//     β1 β2 … of the full system, so does one of its successors in R: if
//     s is expanded in full, β1(s); else, with T its ample set, the first
//     βi in T commutes to the front (C1), and βi(s) starts β1 … βi-1 βi+1
//     …; if no βi is in T, any α ∈ T (not empty, C0) commutes with every
//     βj, and α(s) starts β1 β2 …. So an infinite full path from an initial
//     state gives an infinite path in R, which, R being finite, has a
//     cycle; but the measure decreases along R's edges, so R has none.
//   - Runs are finite, so fairness constrains nothing (a finite maximal
//     run is fair under any assumption), and "eventually Q" fails exactly
//     when a terminal state is reachable along ¬Q states, "P leads to Q"
//     when it is along ¬Q states from a P ∧ ¬Q state (package
//     checker/termination).
//   - R keeps such a run, with its sequence of (P, Q) values up to
//     repetition. The deadlock argument above carries a full path s → t, t
//     terminal, to one in R: where βi ∈ T moves to the front it is
//     invisible at s (C2) and stays so after β1 … βi-1 (lemma V), so the
//     states βi(x), for x before βi on the path, have x's values, and the
//     new path's values are the old ones with one repetition added or
//     removed. A path on which Q never holds, or P ∧ ¬Q holds and then Q
//     never does, stays one.
//
// R keeps every terminal state of the full system (C0 and C1 preserve
// deadlocks: from a stored state that reaches one, some ample successor
// does too), so the checker's test that every terminal state meets the
// goals (checker/termination) reads the same on R. The checker's marks, when that
// test fails, follow R's edges, so they decide the
// properties as on the full graph, and the counterexample is then searched
// for in the full system, so it is the unreduced run's (a shortest one).
// Without a measure, R's cycles would have to decide: with the cycle
// proviso C3 in its strong form (every cycle of R has a state expanded in
// full) R keeps the runs of the full system up to stuttering, but not their
// fairness: an ample set may postpone, round a cycle, an action of a
// process that stays enabled, and mc checks liveness under weak fairness
// (package liveness). So that is refused.
//
// The choice of T (Ample.Choose) depends only on s and on the store as it
// was when s's round began, which rounds of a fixed size make independent
// of the number of workers; the states, their indices and every figure of
// a reduced run are therefore the same for any number of workers. Among the
// qualifying sets, mc takes, like SPIN, a single process's actions when it
// can: the process of the first enabled group in enumeration order whose
// closure holds no other process; else the smallest qualifying closure;
// else s is expanded in full.
//
// Reduction does not apply (checker.Result.ReductionNote says so) when a rule has
// no footprint, since such a rule is dependent on every action, or when an
// invariant, step or witness property or a measure does not declare what it
// reads, since every action is then visible.
package por
