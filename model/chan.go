package model

import "fmt"

// ChanKind is the delivery discipline of a channel.
type ChanKind int

const (
	// FIFO delivers messages in the order they were sent.
	FIFO ChanKind = iota
	// Bag delivers any pending message next.
	Bag
)

func (k ChanKind) String() string {
	if k == Bag {
		return "bag"
	}
	return "fifo"
}

// ParseChanKind reads "fifo" or "bag".
func ParseChanKind(s string) (ChanKind, error) {
	switch s {
	case "fifo":
		return FIFO, nil
	case "bag":
		return Bag, nil
	}
	return FIFO, fmt.Errorf("unknown channel semantics %q (want fifo or bag)", s)
}

// ChanSemantics is how a channel delivers: its order (FIFO or bag) and an
// optional capacity. It is all the checker knows of a channel: partial-order
// reduction reads it for the channels that rule footprints name
// (System.Chans). The messages themselves are the spec's (package ring's
// Chan holds them).
type ChanSemantics struct {
	Kind ChanKind
	// Cap bounds the number of pending messages; 0 means unbounded.
	Cap int
}

// ChanSemantics returns the channel semantics the parameters select.
func (p *Params) ChanSemantics() ChanSemantics { return ChanSemantics{Kind: p.Chan, Cap: p.Cap} }
