// Package model is the contract between mc's specs and its checker: a
// protocol is a System of guarded commands (Rules) over a state type S, with
// Properties to check, Measures to take, rule Footprints for the reduction,
// the semantics of the channels those footprints name, a View for drawings
// and a canonical encoding. It holds no I/O, knows nothing about
// exploration, and nothing about rings: the ring vocabulary (topology,
// ports, channels, orientations, arrangements) is package ring's. Params,
// the union of every spec's parameters, is the one exception for now.
//
// The shape follows Stateright's Model (initial states, actions, next state,
// properties) and etcd-io/raft's pure Step: a rule's effect is a pure function
// of the state it is handed, and the checker, not the protocol, decides which
// enabled action runs next. Channels are explicit values in the state (package
// ring's Chan), so "which message is delivered" is just another
// nondeterministic choice.
//
// Every state has one canonical byte encoding (System.Encode). Equal states
// encode to equal bytes; a bag channel is kept sorted so that the order in
// which messages were sent does not leak into the encoding. The encoding feeds
// the 64-bit XXH3 fingerprint (Fingerprint), the frontier, and later the
// disk store.
package model
