// Package uniring is the state shared by the id-passing election specs on a
// unidirectional ring (changroberts, lelann): per process one flag and a
// decision, and per process one input channel of ⟨elect j⟩ / ⟨done j⟩
// messages. The specs differ only in their rules.
//
// # Two representations of one state
//
// The state is its own canonical encoding, a byte vector like SPIN's state
// vector (layout.go): copying, encoding and decoding a state are each one
// memmove, and those are what the explorer does for every successor.
// Chang–Roberts is the model mc is compared with SPIN and TLC on, so this
// package re-implements the FIFO and bag channels of package ring over its
// bytes. Built with the tag uniring_generic, the package holds the same
// state in ring's generic types instead (generic.go): the reference that
// layout_test.go compares the byte layout with operation by operation, that
// CI runs the changroberts and lelann tests on (their pinned counts must
// not move), and that bench/uniring.sh measures the layout against
// (docs/performance.md: instructions per state).
//
// Layout, for a ring of n:
//
//	[0, n)      flag of process i (participant or started): 0 or 1
//	[n, 2n)     decision of process i (invariants.Decision)
//	[2n, 4n)    number of messages in process i's input channel, 2 bytes
//	            each, big-endian
//	[4n, 4n+4)  ghost: ⟨elect⟩ messages sent, big-endian (0 without --claims)
//	then the channels' messages, process 0's first, 2 bytes each,
//	big-endian kind<<15 | id; each channel's oldest first (FIFO) or in
//	ascending order (bag, its canonical form).
package uniring
