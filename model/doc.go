// Package model is the vocabulary in which mc's specs are written: a ring
// protocol is a System of guarded commands (Rules) over a state type S, with
// Properties to check. It holds no I/O and knows nothing about exploration.
//
// The shape follows Stateright's Model (initial states, actions, next state,
// properties) and etcd-io/raft's pure Step: a rule's effect is a pure function
// of the state it is handed, and the checker, not the protocol, decides which
// enabled action runs next. Channels are explicit values in the state, so
// "which message is delivered" is just another nondeterministic choice.
//
// Every state has one canonical byte encoding (System.Encode). Equal states
// encode to equal bytes; a bag channel is kept sorted so that the order in
// which messages were sent does not leak into the encoding. The encoding feeds
// the 64-bit xxhash fingerprint (Fingerprint), the frontier, and later the
// disk store.
package model
