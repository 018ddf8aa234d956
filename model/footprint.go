package model

// Footprint is what one rule may touch when it fires at one process: the
// static structure that partial-order reduction (mc check --por) needs to
// know which actions commute. A rule declares it with Rule.Footprint; a rule
// without one may touch anything, and the checker then explores every
// interleaving (see package checker, "Partial-order reduction").
//
// The declaration is a promise about the rule's Guard, Choices and Do at
// process p, in every state:
//
//   - they read and write the local variables of process Proc (variables
//     that the rules of no other process touch), or none if Proc is NoProc;
//   - they receive from the channels in Recv: each firing removes at most
//     one message, from one of them. Of a FIFO channel they read only the
//     oldest message and whether there is one; of a bag, its messages. A
//     rule may list a channel it only waits on (a message there enables
//     it, dkr's start), but if it can be enabled while that FIFO channel
//     is empty, a message arriving there must change nothing it does (a
//     rule that reads whether a channel is empty in any other way must
//     also list it in Send, so that its senders depend on it: vitanyi's
//     tick);
//   - they send to the channels in Send: they only append messages and
//     read whether the channel has room (a send to a full channel blocks,
//     Do returns false);
//   - Shared is set if they read or write anything else that other
//     processes' rules may touch (shared memory, a global counter);
//   - Ghost is set if they may write ghost variables (ghost.go), which no
//     rule reads;
//   - nothing else. Parameters (ids, the ring) are constants and free.
//
// Channels are numbered 0..len(System.Chans)-1; System.Chans gives each
// one's semantics.
type Footprint struct {
	Proc   int
	Recv   []int
	Send   []int
	Shared bool
	Ghost  bool
}

// NoProc is the Proc of a rule that touches no process's local variables.
const NoProc = -1
