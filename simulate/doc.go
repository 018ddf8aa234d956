// Package simulate runs a spec at random: mc simulate. Where mc check
// visits every reachable state and stops at a dozen processes, a
// simulation follows R runs, each taking a uniformly random enabled action
// at every step, and reports what the runs measured (messages, steps, the
// spec's measures) as distributions. It is the random mode of TLC
// (-simulate), SPIN and Stateright's simulation checker, with the
// statistics that the seeds' average-case claims (Chang–Roberts' n·H_n
// messages) are about.
//
// A simulation is sampled: it can find a violation, never show that there
// is none. Each run checks every invariant and step property after every
// step, the end properties in its terminal state, and the liveness
// properties that a finite maximal run can break (a run that ends before
// "eventually Q" holds breaks it; a run longer than the step limit breaks
// termination).
//
// Runs are reproducible one by one: run r of seed S draws from its own
// generator, seeded with (S, r) (generator.go), so that the same seed gives
// the same runs, the same statistics and the same first failure with any
// number of workers, and mc simulate --run r replays run r alone.
package simulate
