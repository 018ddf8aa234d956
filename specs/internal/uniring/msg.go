package uniring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Kind is a message's type.
type Kind uint8

const (
	// Elect carries a candidate id around the ring.
	Elect Kind = iota
	// Done announces the elected id.
	Done
)

func (k Kind) String() string {
	if k == Done {
		return "done"
	}
	return "elect"
}

// Msg is ⟨elect j⟩ or ⟨done j⟩.
type Msg = ring.Tagged[Kind]

// MaxID is the largest id a message can carry (15 bits).
const MaxID = 1<<15 - 1

// MaxProcs keeps the layout's counters within their bytes: at most n+1
// messages are ever in one channel (2 bytes), and at most n² ⟨elect⟩
// messages are sent in a run (the ghost's 4 bytes). Ids 1..n fit a
// message's 15 bits up to this n anyway.
const MaxProcs = MaxID

// CheckParams refuses rings the layout cannot hold.
func CheckParams(p *model.Params) error {
	if p.N > MaxProcs {
		return fmt.Errorf("ring size %d is larger than this spec supports (%d)", p.N, MaxProcs)
	}
	for _, id := range p.IDs {
		if id > MaxID {
			return fmt.Errorf("id %d is larger than this spec supports (%d)", id, MaxID)
		}
	}
	return nil
}
