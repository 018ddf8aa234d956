package conformance

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// climb counts from 0 up to its parameter top, then stops (a proper end);
// a witness looks for top, so that a run writes a trace whose length is the parameter's.
func climb(p model.Params) (*model.System[int], error) {
	top, err := p.Param("top")
	if err != nil {
		return nil, err
	}
	return &model.System[int]{Spec: "climb", Variant: "up", Params: p, Procs: 1, Init: []int{0},
		Rules: []model.Rule[int]{{Name: "inc", Ref: "test", Guard: func(x *int, _ int) bool { return *x < top },
			Do: func(x *int, _, _ int) bool { *x++; return true }}},
		Props:  []model.Property[int]{model.WitnessProp("top", "test", "x reaches top", func(x *int) bool { return *x == top })},
		Ends:   model.EveryEnd[int],
		Copy:   func(d, s *int) { *d = *s },
		Encode: func(b []byte, x *int) []byte { return model.AppendUint(b, uint64(*x)) },
		Decode: func(b []byte, x *int) error {
			d := model.NewDecoder(b)
			*x = d.Int()
			return d.Finish()
		},
		Vars: func(x *int) []model.Var { return []model.Var{{Name: "x", Value: fmt.Sprint(*x)}} },
	}, nil
}

// A spec's own parameter is one of the options whose meaning survives
// interruption, resume and replay (none of mc's specs declares one).
func TestParamSurvivesResumeAndReplay(t *testing.T) {
	e := specs.Of(specdef.Spec[int]{Info: specdef.Info{Name: "climb", Ref: "test", Variants: []model.Variant{{Name: "up"}},
		Defaults: specdef.Defaults{N: 2}, Params: []specdef.Param{{Name: "top", Doc: "the last value", Default: 2, Min: 2, Max: 6}}}, Build: climb})
	if err := specs.Add(e); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { specs.Use(true) })
	if got := paramCases(e); fmt.Sprint(got) != "map[param-top:[--param top=6]]" {
		t.Fatalf("cases %v", got)
	}
	if exercised := Meaning(t, e, Options{}); !slices.Contains(exercised, "param") {
		t.Fatalf("exercised %v", exercised)
	}
}
