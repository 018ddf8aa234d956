package vlt

import (
	"os"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// The smallest ring on which a run reaches phase 3 has 8 processors: ids
// 1,2,7,3,4,8,5,6 (one orientation; all give isomorphic systems), with
// processor 0 the only initiator, reach it in both variants, and every
// property and claim holds there. Phase 3 is where the collision mutant
// first shows (TestMutantsChasingClaims).
//
// Why not 7: reaching phase 3 needs two active colours in phase 2 (one
// colour inaugurates in its phase, Prop. 3.6 and the proof of Prop. 3.4),
// so by Lemma 3.7 at least three in phase 1: three local minima.
// MC_VLT_SEVEN=1 checks the 136 arrangements of seven (up to symmetry)
// with three local minima, every processor an initiator, one orientation,
// claims on: 9,526,164 states (9,510,355 with claims off), none in phase 3
// (its running time is in docs/mutants.md).
// Reference: 000 Prop. 3.9 (the phase bound), Lemma 3.7.
func TestPhaseThreeFirstAtEight(t *testing.T) {
	ids := []int{1, 2, 7, 3, 4, 8, 5, 6}
	for _, c := range []struct {
		variant                 string
		states, trans, terminal int64
	}{
		{"e", 43972, 221045, 23},
		{"modified", 74362, 400338, 25},
	} {
		r := sweepOne(t, model.Params{N: 8, IDs: ids, Variant: c.variant, Orientation: make([]bool, 8), Initiators: []int{0}, Claims: true})
		if r.States != c.states || r.Transitions != c.trans || r.Terminal != c.terminal || r.phases != 4 || r.messages != 40 {
			t.Errorf("%s: %d states %d transitions %d terminal, %d phases, %d messages; want %d %d %d, 4 phases (0..3), 40 messages",
				c.variant, r.States, r.Transitions, r.Terminal, r.phases, r.messages, c.states, c.trans, c.terminal)
		}
	}
	if os.Getenv("MC_VLT_SEVEN") == "" {
		return
	}
	var systems int
	var states int64
	for _, ids := range ring.ArrangementsUpToSymmetry(7) {
		if localMinima(ids) < 3 {
			continue
		}
		r := sweepOne(t, model.Params{N: 7, IDs: ids, Orientation: make([]bool, 7), Claims: true})
		systems++
		states += r.States
		if r.phases > 3 {
			t.Errorf("ids %v reach phase %d", ids, r.phases-1)
		}
	}
	if systems != 136 || states != 9526164 {
		t.Errorf("n=7: %d arrangements with three local minima, %d states; want 136, 9526164", systems, states)
	}
}

// observed is a run's result and what the observer saw in it.
type observed struct {
	checker.Result
	sight
}

// sweepOne checks p with the observer on; every property must pass.
func sweepOne(t *testing.T, p model.Params) observed {
	t.Helper()
	o := &observer{n: p.N}
	r := run(t, p, noFault, o.prop())
	for _, pr := range r.Props {
		if pr.Verdict != checker.Pass && pr.Ref != "test" {
			t.Fatalf("%s ids %v: %s %s", p.Variant, p.IDs, pr.Name, pr.Verdict)
		}
	}
	return observed{r, o.sight}
}

func localMinima(ids []int) int {
	n, c := len(ids), 0
	for i := range ids {
		if ids[i] < ids[(i+1)%n] && ids[i] < ids[(i+n-1)%n] {
			c++
		}
	}
	return c
}
