// Package packed packs an action into 32 bits, as the trace log, the
// candidates of a level and the liveness graph keep it: 8 bits of rule, 12
// of process, 12 of choice. The checker refuses a system whose rules,
// processes or choices do not fit (MaxRules, MaxProcs, MaxChoices).
package packed

import "github.com/ringcheck/mc/model"

// The most rules, processes and choices a packed action can name.
const (
	MaxRules   = 1 << 8
	MaxProcs   = 1 << 12
	MaxChoices = 1 << 12
)

// Action packs a, whose fields must be below the limits.
func Action(a model.Action) uint32 {
	return uint32(a.Rule)<<24 | uint32(a.Proc)<<12 | uint32(a.Choice)
}

// Unpack is the action that Action packed into x.
func Unpack(x uint32) model.Action {
	return model.Action{Rule: int(x >> 24), Proc: int(x>>12) & (MaxProcs - 1), Choice: int(x) & (MaxChoices - 1)}
}
