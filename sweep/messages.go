package sweep

import (
	"encoding/json"
	"strconv"
)

// Messages is a worst or best message count of a class or a row. Where a
// cycle makes the count unbounded it is Unbounded, which JSON writes as
// null: a 0 there would read as a cost.
type Messages int

// Unbounded is the count of a class whose graph has a cycle, and of a row
// with such a class.
const Unbounded Messages = -1

func (m Messages) MarshalJSON() ([]byte, error) {
	if m == Unbounded {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(m), 10), nil
}

func (m *Messages) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*m = Unbounded
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*m = Messages(n)
	return nil
}
