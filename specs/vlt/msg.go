package vlt

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Kind is a message's type.
type Kind uint8

const (
	// Chase is the paper's phase message ⟨v, p⟩, or ⟨v, p, q⟩ in the
	// modified version.
	Chase Kind = iota
	// Announce ends the election (000 §3, the two inauguration
	// procedures): ⟨leader u⟩ carries the id of the processor that
	// inaugurated and so is elected (variant e, as §2 describes the
	// outcome); ⟨elected⟩, with no value, is the 1-bit flag that tells every
	// processor that the id in its ID register is the leader's (variant
	// modified, as §4 assumes).
	Announce
)

// Q values of a Chase message. Variant e's messages have no q field.
const (
	noQ    int8 = -1
	relayQ int8 = 0 // a processor relays the message (000 §4)
	firstQ int8 = 1 // its first hop from the active processor that sent it
)

// Msg is ⟨v, p⟩, ⟨v, p, q⟩, ⟨leader v⟩ or the flag ⟨elected⟩ (V = 0).
type Msg struct {
	Kind Kind
	V, P int
	Q    int8
}

// Compare orders messages by kind, value, phase and q. Links are FIFO, so
// it is never used to sort; ring.Message requires it.
func (m Msg) Compare(o Msg) int {
	switch {
	case m.Kind != o.Kind:
		return int(m.Kind) - int(o.Kind)
	case m.V != o.V:
		return m.V - o.V
	case m.P != o.P:
		return m.P - o.P
	}
	return int(m.Q) - int(o.Q)
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	if m.Kind == Announce {
		return model.AppendUint(append(buf, byte(Announce)), uint64(m.V))
	}
	buf = append(buf, byte(Chase), byte(m.Q+1))
	return model.AppendUint(model.AppendUint(buf, uint64(m.V)), uint64(m.P))
}

func readMsg(d *model.Decoder) Msg {
	if Kind(d.Int()) == Announce {
		return Msg{Kind: Announce, V: d.Int()}
	}
	q := int8(d.Int()) - 1
	v := d.Int()
	return Msg{Kind: Chase, V: v, P: d.Int(), Q: q}
}

func (m Msg) String() string {
	switch {
	case m.Kind == Announce && m.V == 0:
		return "⟨elected⟩"
	case m.Kind == Announce:
		return fmt.Sprintf("⟨leader %d⟩", m.V)
	case m.Q == noQ:
		return fmt.Sprintf("⟨%d,%d⟩", m.V, m.P)
	}
	return fmt.Sprintf("⟨%d,%d,%d⟩", m.V, m.P, m.Q)
}

// KindName is chase for the phase messages, and leader or elected for the
// announcement, as it renders (model.Kinded).
func (m Msg) KindName() string {
	switch {
	case m.Kind == Announce && m.V == 0:
		return "elected"
	case m.Kind == Announce:
		return "leader"
	}
	return "chase"
}
