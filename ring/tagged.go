package ring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// TagKind is a message type of a ring protocol: a small enumeration that
// names itself ("elect", "wakeup").
type TagKind interface {
	~uint8
	String() string
}

// Tagged is the shape most ring messages share: a kind and an id, as in
// ⟨elect 5⟩. A kind that carries no id (⟨wakeup⟩) leaves ID 0 and prints
// bare. Bags order tagged messages by kind, then id.
type Tagged[K TagKind] struct {
	Kind K
	ID   int
}

// Compare orders messages by kind, then id.
func (m Tagged[K]) Compare(o Tagged[K]) int {
	if m.Kind != o.Kind {
		return int(m.Kind) - int(o.Kind)
	}
	return m.ID - o.ID
}

// AppendTo writes the message's canonical bytes: kind, then id.
func (m Tagged[K]) AppendTo(buf []byte) []byte {
	return model.AppendUint(append(buf, byte(m.Kind)), uint64(m.ID))
}

// KindName is the kind's own name ("elect"), for a View (Kinded).
func (m Tagged[K]) KindName() string { return m.Kind.String() }

func (m Tagged[K]) String() string {
	if m.ID == 0 {
		return fmt.Sprintf("⟨%v⟩", m.Kind)
	}
	return fmt.Sprintf("⟨%v %d⟩", m.Kind, m.ID)
}

// ReadTagged reads what Tagged.AppendTo wrote.
func ReadTagged[K TagKind](d *model.Decoder) Tagged[K] {
	k := K(d.Int())
	return Tagged[K]{Kind: k, ID: d.Int()}
}
