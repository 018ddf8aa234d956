package specs

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
	"github.com/ringcheck/mc/specs/specdef"
)

// Partial-order reduction changes no verdict: for every spec and variant,
// every arrangement of 3 and 4 ids and one of 5 ids per symmetry class, FIFO and
// bag channels, unbounded and of capacity 1, claims off and on, every
// process or only process 0 an initiator, a reduced run gives the same
// verdict on every property as a full one, and reaches exactly the same
// terminal states (it keeps every deadlock). Parameters a spec refuses are
// skipped, and so are the variants to which reduction does not apply (a
// rule without a footprint: suzukikasami's recurring): their reduced run is
// the full one; for hs,
// suzukikasami and vitanyi, so are the configurations past crossLimit
// states. vitanyi is
// also run with drift bound 1 (crossDrift).
func TestReductionKeepsEveryVerdict(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			for _, v := range e.Variants {
				if note := reductionNote(t, e, v.Name); note != "" {
					t.Logf("%s variant %s: reduction %s", e.Name, v.Name, note)
					continue
				}
				checked, skipped := 0, 0
				for _, ids := range crossArrangements(e.Symmetry) {
					for _, p := range paramGrid(v.Name, ids, crossDrift[e.Name]) {
						if crossCheck(t, e, p) {
							checked++
						} else {
							skipped++
						}
					}
				}
				if checked == 0 {
					t.Fatalf("%s variant %s: no configuration cross-checked", e.Name, v.Name)
				}
				t.Logf("%s variant %s: %d configurations cross-checked, %d refused or past the limit", e.Name, v.Name, checked, skipped)
			}
		})
	}
}

// crossArrangements are the arrangements cross-checked: every one of 3
// and 4 ids and one per class of 5; with -short (CI's race run), every
// one of 3 and one per class of 4.
func crossArrangements(sym ring.Symmetry) [][]int {
	if testing.Short() {
		out := ring.Arrangements(3)
		for _, cl := range ring.ArrangementClasses(4, sym) {
			out = append(out, cl.Rep)
		}
		return out
	}
	out := append(ring.Arrangements(3), ring.Arrangements(4)...)
	for _, cl := range ring.ArrangementClasses(5, sym) {
		out = append(out, cl.Rep)
	}
	return out
}

// paramGrid is every combination of the channel settings, claims,
// initiators and drift bounds (none if drifts is empty) the
// cross-validation covers, for one variant and arrangement.
func paramGrid(variant string, ids []int, drifts []int) []model.Params {
	if len(drifts) == 0 {
		drifts = []int{0}
	}
	var out []model.Params
	for _, ch := range []model.ChanKind{model.FIFO, model.Bag} {
		for _, capacity := range []int{0, 1} {
			if capacity > 0 && len(ids) > 4 {
				continue
			}
			for _, claims := range []bool{false, true} {
				for _, init := range [][]int{nil, {0}} {
					for _, drift := range drifts {
						out = append(out, model.Params{N: len(ids), IDs: ids, Variant: variant, Chan: ch, Cap: capacity, Claims: claims, Initiators: init, Drift: drift})
					}
				}
			}
		}
	}
	return out
}

// reductionNote says why reduction does not apply to e on its defaults, or
// "" if it does; it explores a single state.
func reductionNote(t *testing.T, e Entry, variant string) string {
	t.Helper()
	p := model.Params{N: e.Defaults.N, IDs: e.IDs(e.Defaults.N), Variant: variant}
	if e.Takes.Has(specdef.Drift) {
		p.Drift = 1 // vitanyi's variant scaled reads its clock ratio off the drift
	}
	tg, err := e.Build(p)
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

// crossLimit bounds the full runs of the cross-validation for the specs
// whose grid would take minutes (hs, suzukikasami: 10^5 states and more at
// n = 5), so that
// it stays within seconds per spec: a configuration whose full state space
// is larger is skipped, and counted. Other specs have no limit.
var crossLimit = map[string]int64{"hs": 2000, "vitanyi": 2000, "suzukikasami": 2000}

// crossDrift lists the drift bounds the cross-validation tries for the
// specs that take one (vitanyi's variant scaled needs K ≥ 1); 0 for the
// others.
var crossDrift = map[string][]int{"vitanyi": {0, 1}}

// crossCheck compares the full and reduced runs of e for p, and reports
// whether it did (false: p is refused, or past crossLimit).
func crossCheck(t *testing.T, e Entry, p model.Params) bool {
	t.Helper()
	tg, err := e.Build(p)
	if err != nil {
		return false
	}
	_, _, ok := spectest.SameVerdictsWithin(t, tg, fmt.Sprintf("%s %s variant %s", e.Name, p.String(), p.Variant), crossLimit[e.Name])
	return ok
}
