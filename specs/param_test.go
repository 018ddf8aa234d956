package specs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// counterSpec counts from 0 to its parameter "top": top+1 states.
func counterSpec(params []specdef.Param) Entry {
	return Of(specdef.Spec[int]{Info: specdef.Info{Name: "counter", Variants: []model.Variant{{Name: "up"}}, Defaults: specdef.Defaults{N: 2}, Params: params},
		Build: func(p model.Params) (*model.System[int], error) {
			top, err := p.Param("top")
			if err != nil {
				return nil, err
			}
			return &model.System[int]{Spec: "counter", Variant: "up", Params: p, Procs: 1, Init: []int{0},
				Rules:  []model.Rule[int]{{Name: "inc", Guard: func(x *int, _ int) bool { return *x < top }, Do: func(x *int, _, _ int) bool { *x++; return true }}},
				Copy:   func(d, s *int) { *d = *s },
				Encode: func(b []byte, x *int) []byte { return model.AppendUint(b, uint64(*x)) },
				Decode: func(b []byte, x *int) error {
					d := model.NewDecoder(b)
					*x = d.Int()
					return d.Finish()
				},
				Vars: func(x *int) []model.Var { return []model.Var{{Name: "x", Value: fmt.Sprint(*x)}} },
			}, nil
		}})
}

// The registry builds a spec with its own parameters checked and their
// defaults filled in, whoever calls Build; it refuses a spec whose
// declaration is at fault.
func TestRegistryResolvesOwnParams(t *testing.T) {
	top := specdef.Param{Name: "top", Doc: "the counter's last value", Default: 2, Min: 0, Max: 5}
	e := counterSpec([]specdef.Param{top})
	for _, c := range []struct {
		own  []model.Param
		want string
	}{{nil, "n=2 chan=fifo initiators=all top=2"}, {[]model.Param{{Name: "top", Value: 5}}, "n=2 chan=fifo initiators=all top=5"}} {
		tg, err := e.Build(model.Params{N: 2, Own: c.own})
		if err != nil {
			t.Fatal(err)
		}
		if p := tg.Info().Params; p.String() != c.want {
			t.Errorf("built with %v: %s, want %s", c.own, p.String(), c.want)
		}
		if _, err := e.Simulate(model.Params{N: 2, Own: c.own}); err != nil {
			t.Errorf("simulate with %v: %v", c.own, err)
		}
	}
	if _, err := e.Build(model.Params{N: 2, Own: []model.Param{{Name: "top", Value: 6}}}); err == nil || !strings.Contains(err.Error(), "from 0 to 5, got 6") {
		t.Errorf("top=6: %v", err)
	}
	if _, err := counterSpec(nil).Build(model.Params{N: 2}); err == nil || !strings.Contains(err.Error(), `"top"`) {
		t.Errorf("a Build reading a parameter its spec does not declare: %v", err)
	}
	t.Cleanup(func() { Use(true) })
	if err := Use(true, counterSpec([]specdef.Param{top, top})); err == nil || err.Error() != "spec counter declares parameter top twice" {
		t.Errorf("Use with a bad declaration: %v", err)
	}
	if err := Use(false, e); err != nil || len(All()) != 1 {
		t.Errorf("Use with a good declaration: %v", err)
	}
}
