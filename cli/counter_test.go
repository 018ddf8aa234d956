package cli

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// counterSystem is a test-only spec's system over one integer x, starting
// at 0, one process: the rules given, and the plumbing every such spec
// repeats (copy, encoding, decoding, the trace's variable x).
func counterSystem(spec string, p model.Params, rules ...model.Rule[int]) *model.System[int] {
	return &model.System[int]{Spec: spec, Variant: p.Variant, Params: p, Procs: 1, Init: []int{0}, Rules: rules,
		Copy:   func(d, s *int) { *d = *s },
		Encode: func(b []byte, x *int) []byte { return model.AppendUint(b, uint64(*x)) },
		Decode: func(b []byte, x *int) error {
			d := model.NewDecoder(b)
			*x = d.Int()
			return d.Finish()
		},
		Vars: func(x *int) []model.Var { return []model.Var{{Name: "x", Value: fmt.Sprint(*x)}} },
	}
}

// testSpec is the registry entry of a test-only spec named name, ring size
// 1 by default, with its variants, its source a one-line package.
func testSpec(name string, build func(model.Params) (*model.System[int], error), variants ...string) specs.Entry {
	var vs []model.Variant
	for _, v := range variants {
		vs = append(vs, model.Variant{Name: v})
	}
	return specs.Of(specdef.Spec[int]{Info: specdef.Info{Name: name, Defaults: specdef.Defaults{N: 1}, Variants: vs,
		Source: fstest.MapFS{name + ".go": {Data: []byte("package " + name + "\n")}}}, Build: build})
}

// useTestSpec registers entry beside mc's own specs for the test.
func useTestSpec(t *testing.T, entry specs.Entry) {
	t.Helper()
	if err := specs.Use(true, entry); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = specs.Use(true) })
}
