package changroberts

import (
	"fmt"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/internal/uniring"
)

// learnsLeaderID is 002 §5.2's "elected" handler read as a claim: a
// process that receives ⟨elected j⟩ records j as its coordinator, so every
// process learns the leader's id. The canonical model keeps no coordinator
// register (the package doc): the id a process learns is the one on the
// ⟨done j⟩ that makes it lost, the only step that does. So the claim is
// that this ⟨done⟩ carries the leader's id, the maximum; with
// election-complete (every process but the leader is lost at the end)
// that is every process learning it. It needs no ghost, so it adds no
// state with --claims.
func (sp *spec) learnsLeaderID(recv int) model.Property[uniring.State] {
	winner := sp.IDs[invariants.ArgMax(sp.IDs)]
	return model.StepProp("learns-leader-id", Ref+" (elected: coordinator ← j)",
		fmt.Sprintf("a process turns lost only on receiving ⟨done %d⟩, the leader's id, which it thereby learns", winner),
		func(before *uniring.State, a model.Action, after *uniring.State) bool {
			if before.Decision(a.Proc) == invariants.Lost || after.Decision(a.Proc) != invariants.Lost {
				return true
			}
			if a.Rule != recv {
				return false
			}
			m := sp.Peek(before, a.Proc, a.Choice)
			return m.Kind == uniring.Done && m.ID == winner
		}).Reading(uniring.AppendDecisions). // it holds on every step that decides nothing
		WhenStep("no process turned lost", func(before *uniring.State, a model.Action, after *uniring.State) bool {
			return before.Decision(a.Proc) != invariants.Lost && after.Decision(a.Proc) == invariants.Lost
		})
}
