package vlt

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// Prop. 3.6 (ii) and §3's count of phase-1 minima are not vacuous where
// they are checked: with ids 1,3,2,4 both local minima (1 and 2) are
// active in phase 1 in some run, ⌊n/2⌋, the count's upper end, and some run
// inaugurates in phase 1 or later, where the one-colour claim has a phase
// to look at; both claims hold, in both variants.
func TestPhaseOneMinimaAndOneColourAreExercised(t *testing.T) {
	for _, variant := range []string{"e", "modified"} {
		p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Variant: variant, Orientation: make([]bool, 4), Claims: true}
		sys, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		sp := &spec{n: 4}
		sys.Props = append(sys.Props,
			model.WitnessProp("two-minima-active", "test", "", func(s *State) bool { return sp.activeIn(s, 1) == 2 }),
			model.WitnessProp("inaugurated-after-phase-0", "test", "", func(s *State) bool { return s.Ghost.InauguratedIn>>1 != 0 }))
		r := checker.Run(context.Background(), sys, checker.Options{})
		for _, name := range []string{"prop-3-6-ii-one-colour", "sec-3-phase-1-minima", "two-minima-active", "inaugurated-after-phase-0"} {
			if v := prop(t, &r, name).Verdict; v != checker.Pass {
				t.Errorf("%s: %s is %s", variant, name, v)
			}
		}
	}
}
