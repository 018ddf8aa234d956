package packed

import (
	"testing"

	"github.com/ringcheck/mc/model"
)

func TestActionPackingRoundTrips(t *testing.T) {
	for _, a := range []model.Action{{}, {Rule: 255, Proc: 4095, Choice: 4095}, {Rule: 3, Proc: 17, Choice: 2}} {
		if got := Unpack(Action(a)); got != a {
			t.Fatalf("Unpack(Action(%v)) = %v", a, got)
		}
	}
}
