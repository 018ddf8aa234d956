package specs

import (
	"context"
	"fmt"
	"testing"

	"mc/checker"
	"mc/model"
	"mc/specs/internal/spectest"
)

// Partial-order reduction changes no verdict: for every spec and variant,
// every arrangement of 4 ids and one of 5 ids per symmetry class, FIFO and
// bag channels, unbounded and of capacity 1, claims off and on, every
// process or only process 0 an initiator, a reduced run gives the same
// verdict on every property as a full one, and reaches exactly the same
// terminal states (it keeps every deadlock). Parameters a spec refuses are
// skipped, and so are specs to which reduction does not apply (a rule
// without a footprint): their reduced run is the full one.
func TestReductionKeepsEveryVerdict(t *testing.T) {
	for _, e := range All() {
		if note := reductionNote(t, e); note != "" {
			t.Logf("%s: reduction %s", e.Name, note)
			continue
		}
		for _, v := range e.Variants {
			var arrangements [][]int
			arrangements = append(arrangements, model.Arrangements(4)...)
			for _, cl := range model.ArrangementClasses(5, e.Symmetry) {
				arrangements = append(arrangements, cl.Rep)
			}
			for _, ids := range arrangements {
				for _, p := range paramGrid(v.Name, ids) {
					crossCheck(t, e, p)
				}
			}
		}
	}
}

// paramGrid is every combination of the channel settings, claims and
// initiators the cross-validation covers, for one variant and arrangement.
func paramGrid(variant string, ids []int) []model.Params {
	var out []model.Params
	for _, ch := range []model.ChanKind{model.FIFO, model.Bag} {
		for _, capacity := range []int{0, 1} {
			if capacity > 0 && len(ids) > 4 {
				continue
			}
			for _, claims := range []bool{false, true} {
				for _, init := range [][]int{nil, {0}} {
					out = append(out, model.Params{N: len(ids), IDs: ids, Variant: variant, Chan: ch, Cap: capacity, Claims: claims, Initiators: init})
				}
			}
		}
	}
	return out
}

// reductionNote says why reduction does not apply to e on its defaults, or
// "" if it does; it explores a single state.
func reductionNote(t *testing.T, e Entry) string {
	t.Helper()
	tg, err := e.Build(model.Params{N: e.DefaultN, IDs: e.IDs(e.DefaultN)})
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	r := tg.Check(context.Background(), checker.Options{Workers: 1, Reduce: true, Safety: true, MaxStates: 1})
	if r.Err != nil {
		t.Fatalf("%s: %v", e.Name, r.Err)
	}
	if !r.Reduced && r.ReductionNote == "" {
		t.Fatalf("%s: reduction neither applied nor said why not", e.Name)
	}
	return r.ReductionNote
}

func crossCheck(t *testing.T, e Entry, p model.Params) {
	t.Helper()
	tg, err := e.Build(p)
	if err != nil {
		return
	}
	spectest.SameVerdicts(t, tg, fmt.Sprintf("%s %s variant %s", e.Name, p.String(), p.Variant))
}
