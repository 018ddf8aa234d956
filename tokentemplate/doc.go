// Package tokentemplate writes a protocol on a unidirectional token ring as
// one process template, in a form that meets by construction the
// hypotheses of the cutoff theorem for token rings of Emerson and
// Namjoshi, "Reasoning about rings" (POPL 1995; IJFCS 2003), as
// docs/every-n.md states it and says where it was read.
//
// A template is data: the process's local states, its actions as moves
// between local states that may need the token (or its absence) and may
// send it on, and its properties as indexed formulas from a small closed
// set. Nothing in it can name a process: the actions get no index, so the
// processes are identical and read no index or id; the only move of the
// token is to the sender's successor, so no process chooses a direction;
// the only communication is the token, which carries no value. The
// properties' shapes fix their fragment and their number of indices, from
// which CutoffOf picks the theorem and its cutoff.
//
// What the construction cannot guarantee, Validate checks when a system is
// built: that the moves and atoms name real local states, that only a
// process holding the token sends it, and that a process holding the token
// passes it on within finitely many of its own moves. The last is the
// theorem's condition on the template, and what makes mc's semantics
// (every reachable state, every infinite run) agree with the theorem's
// fair runs for the properties it checks (docs/every-n.md, "From the
// theorems to mc's checks").
package tokentemplate
