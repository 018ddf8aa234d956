package invariants

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// ProcViews pictures the processes of an election for a model.View: each
// named pN, labelled with its id, with its decision once it has one.
func ProcViews(ids []int, e Election) []model.ProcView {
	out := make([]model.ProcView, e.Procs())
	for i := range out {
		out[i] = model.ProcView{Name: fmt.Sprintf("p%d", i), Label: fmt.Sprintf("id %d", ids[i])}
		if d := e.Decision(i); d != Undecided {
			out[i].Status = d.String()
		}
	}
	return out
}
