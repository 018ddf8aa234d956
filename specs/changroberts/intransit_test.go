package changroberts

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// InTransit, which sweeps read on every state, lists what the View shows.
func TestInTransitAgreesWithView(t *testing.T) {
	spectest.InTransitAgreesOnEveryVariant(t, New, Variants, model.FIFO, model.Bag)
}
