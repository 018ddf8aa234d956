package hs

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Kind is a message's type: the first three are 002 §5.3's, the last three
// 004's.
type Kind uint8

const (
	// Candidature is 002's (candidature, number, lg, lgmax).
	Candidature Kind = iota
	// Response is 002's (response, bool, number).
	Response
	// Ended is 002's (ended, number).
	Ended
	// Probe is 004's ⟨probe, ids, phase, ttl⟩.
	Probe
	// Reply is 004's ⟨reply, ids, phase⟩.
	Reply
	// Terminate is 004's ⟨terminate⟩.
	Terminate
)

// Msg is one message of either variant. ID is the candidate's id (number,
// ids); Phase is i where the hop limit is 2^i (lgmax = 2^i, or 004's phase);
// Hops is 002's lg (hops travelled) or 004's ttl (hops left); OK is a
// response's bool. Fields a kind does not use are zero.
type Msg struct {
	Kind  Kind
	ID    int
	Phase uint8
	Hops  int
	OK    bool
}

// Compare orders messages field by field (a bag's canonical order).
func (m Msg) Compare(o Msg) int {
	switch {
	case m.Kind != o.Kind:
		return int(m.Kind) - int(o.Kind)
	case m.ID != o.ID:
		return m.ID - o.ID
	case m.Phase != o.Phase:
		return int(m.Phase) - int(o.Phase)
	case m.Hops != o.Hops:
		return m.Hops - o.Hops
	case m.OK != o.OK:
		if m.OK {
			return 1
		}
		return -1
	}
	return 0
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	buf = append(buf, byte(m.Kind), m.Phase)
	buf = model.AppendUint(buf, uint64(m.ID))
	buf = model.AppendUint(buf, uint64(m.Hops))
	return model.AppendBool(buf, m.OK)
}

func readMsg(d *model.Decoder) Msg {
	var m Msg
	m.Kind, m.Phase = Kind(d.Int()), uint8(d.Int())
	m.ID, m.Hops, m.OK = d.Int(), d.Int(), d.Bool()
	return m
}

// announces holds for ⟨ended⟩ and ⟨terminate⟩, which tell the others that
// the election is over.
func announces(m Msg) bool { return m.Kind == Ended || m.Kind == Terminate }

func (m Msg) String() string {
	switch m.Kind {
	case Candidature:
		return fmt.Sprintf("⟨candidature %d lg %d lgmax %d⟩", m.ID, m.Hops, 1<<m.Phase)
	case Response:
		return fmt.Sprintf("⟨response %s %d⟩", tf(m.OK), m.ID)
	case Ended:
		return fmt.Sprintf("⟨ended %d⟩", m.ID)
	case Probe:
		return fmt.Sprintf("⟨probe %d phase %d ttl %d⟩", m.ID, m.Phase, m.Hops)
	case Reply:
		return fmt.Sprintf("⟨reply %d phase %d⟩", m.ID, m.Phase)
	}
	return "⟨terminate⟩"
}

// KindName is the seed's name of the message's type (model.Kinded).
func (m Msg) KindName() string {
	return [...]string{Candidature: "candidature", Response: "response", Ended: "ended", Probe: "probe", Reply: "reply", Terminate: "terminate"}[m.Kind]
}

// tf renders a boolean as the seeds do.
func tf(b bool) string {
	if b {
		return "T"
	}
	return "F"
}
