package specs

import (
	"context"
	"fmt"
	"testing"

	"mc/checker"
	"mc/model"
)

// Partial-order reduction changes no verdict: for every spec and variant,
// every arrangement of 4 ids and one of 5 ids per symmetry class, FIFO and
// bag channels, unbounded and of capacity 1, claims off and on, every
// process or only process 0 an initiator, a reduced run gives the same
// verdict on every property as a full one, and reaches exactly the same
// terminal states (it keeps every deadlock). Parameters a spec refuses are
// skipped.
func TestReductionKeepsEveryVerdict(t *testing.T) {
	for _, e := range All() {
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

func crossCheck(t *testing.T, e Entry, p model.Params) {
	t.Helper()
	tg, err := e.Build(p)
	if err != nil {
		return
	}
	full := tg.Check(context.Background(), checker.Options{Workers: 1})
	red := tg.Check(context.Background(), checker.Options{Workers: 1, Reduce: true})
	if full.Err != nil || red.Err != nil {
		t.Fatalf("%s %s: %v / %v", e.Name, p.String(), full.Err, red.Err)
	}
	if verdicts(full) != verdicts(red) || full.Terminal != red.Terminal || red.States > full.States {
		t.Fatalf("%s %s variant %s:\nfull    %s, %d states, %d terminal\nreduced %s, %d states, %d terminal",
			e.Name, p.String(), p.Variant, verdicts(full), full.States, full.Terminal, verdicts(red), red.States, red.Terminal)
	}
}

func verdicts(r checker.Result) string {
	s := string(r.Verdict)
	for _, p := range r.Props {
		s += fmt.Sprintf(" %s=%s", p.Name, p.Verdict)
	}
	return s
}
