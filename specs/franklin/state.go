package franklin

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
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

// Proc is one process's variables.
type Proc struct {
	Status Status
	// Heard[port] is the id received through port in the current stage,
	// 0 while none has arrived; only an active process uses it.
	Heard [2]int
}

// State is the global state: each process's variables, what it knows of
// the outcome, and the channels with the ghost (package biring).
type State = biring.State[Proc, Msg]

// AppendTo writes the process's canonical bytes.
func (p *Proc) AppendTo(buf []byte) []byte {
	buf = append(buf, byte(p.Status))
	buf = model.AppendUint(buf, uint64(p.Heard[ring.Left]))
	return model.AppendUint(buf, uint64(p.Heard[ring.Right]))
}

// DecodeFrom reads what AppendTo wrote.
func (p *Proc) DecodeFrom(d *model.Decoder) {
	p.Status = Status(d.Int())
	p.Heard[ring.Left], p.Heard[ring.Right] = d.Int(), d.Int()
}

// Vars renders process i for traces, with what it knows of the outcome.
func (p *Proc) Vars(out []model.Var, i int, o *invariants.Outcome) []model.Var {
	out = append(out,
		model.Var{Name: fmt.Sprintf("p%d.status", i), Value: p.Status.String()},
		model.Var{Name: fmt.Sprintf("p%d.heard", i), Value: fmt.Sprintf("left %s right %s", heard(p.Heard[ring.Left]), heard(p.Heard[ring.Right]))})
	return append(out, o.Vars(i)...)
}

func heard(v int) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprint(v)
}
