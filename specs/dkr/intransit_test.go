package dkr

import (
	"testing"

	"github.com/ringcheck/mc/specs/internal/spectest"
)

// InTransit, which sweeps read on every state, lists what the View shows
// (FIFO channels only, as the spec takes no others).
func TestInTransitAgreesWithView(t *testing.T) {
	spectest.InTransitAgreesOnEveryVariant(t, New, Variants)
}
