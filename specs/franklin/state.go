package franklin

import (
	"fmt"

	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// Kind is a message's type.
type Kind uint8

const (
	// ID carries an active process's id to its nearest active neighbour.
	ID Kind = iota
	// Leader is the announcement: it carries the winner's id once round the
	// ring.
	Leader
)

func (k Kind) String() string {
	if k == Leader {
		return "leader"
	}
	return "id"
}

// Msg is ⟨id v⟩ or ⟨leader v⟩.
type Msg = ring.Tagged[Kind]

// announces tells the announcement from the election's messages.
func announces(m Msg) bool { return m.Kind == Leader }

// Status is a process's role.
type Status uint8

const (
	// Asleep: it has not started yet.
	Asleep Status = iota
	// Active: it competes in the current stage.
	Active
	// Passive: it lost a stage and relays.
	Passive
	// Won: it received its own id from both sides and announced itself.
	Won
)

func (st Status) String() string {
	return [...]string{"asleep", "active", "passive", "elected"}[st]
}

//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type Proc

// Proc is one process's variables.
type Proc struct {
	Status Status
	// Heard[port] is the id received through port in the current stage,
	// 0 while none has arrived; only an active process uses it.
	Heard [2]int `mc:",show=heardPorts"`
}

// State is the global state: each process's variables, what it knows of
// the outcome, and the channels with the ghost (package biring).
type State = biring.State[Proc, Msg]

// heardPorts renders Heard for traces: "left 3 right -".
func heardPorts(h [2]int) string {
	return fmt.Sprintf("left %s right %s", heard(h[ring.Left]), heard(h[ring.Right]))
}

func heard(v int) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprint(v)
}
