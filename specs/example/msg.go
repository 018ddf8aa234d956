package example

import "github.com/ringcheck/mc/ring"

// Kind is a message's type: the seed's "election" and "elected" messages
// (002 §5.2).
type Kind uint8

const (
	// Elect is ⟨elect j⟩, the seed's "election" message: j is a candidate's id.
	Elect Kind = iota
	// Done is ⟨done j⟩, the seed's "elected" message: j has won.
	Done
)

// Msg is ⟨elect j⟩ or ⟨done j⟩. ring.Tagged gives it what a channel needs:
// the order a bag keeps its messages in, canonical bytes and a rendering.
type Msg = ring.Tagged[Kind]
