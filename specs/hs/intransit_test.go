package hs

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// InTransit, which sweeps read on every state, lists what the View shows:
// 002's variants (raynal, raynal-literal), then 004's (probe).
func TestInTransitAgreesWithView(t *testing.T) {
	spectest.InTransitAgreesOnEveryVariant(t, NewRaynal, Variants[:2], model.FIFO, model.Bag)
	spectest.InTransitAgreesOnEveryVariant(t, NewProbe, Variants[2:], model.FIFO, model.Bag)
}
