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

// Link is the semantics shared by the channels of a system: delivery order
// and an optional capacity.
type Link struct {
	Kind ChanKind
	// Cap bounds the number of pending messages; 0 means unbounded.
	Cap int
}

// Link returns the channel semantics the parameters select.
func (p *Params) Link() Link { return Link{Kind: p.Chan, Cap: p.Cap} }
