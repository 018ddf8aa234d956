package dkr

import (
	"fmt"
	"testing"

	"mc/model"
	"mc/specs/internal/spectest"
)

// InTransit, which sweeps read on every state, lists what the View shows.
func TestInTransitAgreesWithView(t *testing.T) {
	for _, v := range Variants {
		p := model.Params{N: 4, IDs: []int{2, 4, 1, 3}, Variant: v.Name} // FIFO only
		sys, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		spectest.InTransitAgreesWithView(t, sys, fmt.Sprintf("%s %s", v.Name, p.String()), 3000)
	}
}
