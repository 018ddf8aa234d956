// Package tokentemplate writes a protocol on a unidirectional token ring as
// one process template, in a form that meets by construction the
// hypotheses of the cutoff theorems for token rings (docs/every-n.md):
// Emerson and Namjoshi, "Reasoning about rings" (POPL 1995; IJFCS 2003),
// and Aminof, Jacobs, Khalimov and Rubin, "Parameterized model checking of
// token-passing systems" (VMCAI 2014).
//
// A template is data: the process's local states, its actions as moves
// between local states that may need the token (or its absence) and may
// send it on, and its properties as indexed formulas from a small closed
// set. Nothing in it can name a process: the actions get no index, so the
// processes are identical and read no index or id; the only move of the
// token is to the sender's successor, so no process chooses a direction;
// the only communication is the token, which carries no value. The
// properties' shapes fix their fragment and their number of indices, from
// which Cutoff picks the theorem and its cutoff.
//
// What the construction cannot guarantee, Validate checks when a system is
// built: that the moves and atoms name real local states, that only a
// process holding the token sends it, and that a process holding the token
// can always pass it on by its own moves. The last is what makes mc's
// semantics (every reachable state, every infinite run) agree with the
// theorems' (the runs on which every process receives the token
// infinitely often) for the properties it checks (docs/every-n.md,
// "From the theorems to mc's checks").
package tokentemplate
