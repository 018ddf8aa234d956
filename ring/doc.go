// Package ring is the vocabulary of ring protocols that mc's specs share:
// the topology (Ring) and a process's ports (Port, PortSet); one channel
// type (Chan: FIFO or bag, optionally bounded); how a ring's links carry
// messages (Net: one-way on a unidirectional ring, half- or full-duplex on
// a bidirectional one) and the messages in transit on all of them (Chans);
// the shape most ring messages have (Tagged); the orientation assignments
// of a ring without a common sense of orientation, the arrangements of ids
// around a ring, and the ring's symmetries that make some of them
// isomorphic (orientation.go, arrange.go).
//
// The words: a link joins two neighbours; a channel carries messages one
// way, in FIFO order or as a bag; a link is one channel (one-way), or two
// (full-duplex), or one place that holds one message at a time in either
// direction (half-duplex). A ring's channels are numbered as footprints
// number them (Net.Chan).
//
// Package model, the checker's contract, knows none of this; a spec builds
// its state from these values and hands the checker a model.System.
//
// # Links of a bidirectional ring
//
// A bidirectional ring of n has n links; link k joins process k and k+1
// (Ring). Every process names its two ports Left and Right in its own way
// (Ring.Flipped; orientation.go says which assignments mc checks). Chans
// holds the messages in transit, per receiving process and port. A spec
// whose system starts from several orientation assignments
// (Params.Orientation) keeps the orientation in its state too, and builds
// its Net from it.
//
// A message is on its link from the step that sends it until the step in
// which the receiver takes it: the link and the receiver's queue for that
// port are one place. That is how seed 000's §2 remark reads ("a message
// should not be sent and any processing be un-done when there is still an
// unprocessed incoming message in a queue at the processor, in the direction
// in which a message would be sent"): a message waiting, unprocessed, in a
// queue blocks the link as much as one on the wire.
//
// Full-duplex links (model.FullDuplex; seed 000 §4) are two independent
// channels, one per direction. A send goes through unless the channel is
// bounded and full (--cap). Two messages going opposite ways may be on one
// link at once: they pass each other.
//
// Half-duplex links (model.HalfDuplex; seed 000 §2) carry at most one message at a
// time, in either direction, so two messages never pass each other on a
// link; they meet in a process.
//
//   - Send on a busy link. A send over a link that holds a message, in either
//     direction, does not happen, and neither does anything else the step
//     would do: the step is not enabled (model.Rule.Do returns false) and the
//     process waits. If the message on the link is its own earlier one, it
//     waits until the neighbour takes it. If it is an incoming one, the
//     process can go on only by taking that message first, which is the §2
//     remark: the message is not sent and the processing is undone.
//   - Receive with messages waiting at both ports. The process may take both
//     in one step (the paper's collision, "recognized as such and … not
//     treated as twice the receipt of one message"), or either one alone, as
//     if the other were still on its way. A step that takes one alone and
//     would send towards the other finds that link busy, so it is not
//     enabled: a message is never sent past a waiting one.
//
// A spec chooses how its processes receive. Seed 000's processes take the
// oldest message of the left port, of the right one, or both at once
// (Chans.JointChoices); the choices are the same under both semantics. Under full-duplex links the
// choice also stands for the time a message spends travelling: a process
// may act on one port while a message on the other is still on its way.
// Other specs take one message per step through the ports their processes
// are open to (Chans.Choices), each distinct message of a bag being a choice
// of its own.
package ring
