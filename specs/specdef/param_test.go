package specdef

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// A declaration at fault is refused, naming the fault; a good one passes.
func TestCheckParams(t *testing.T) {
	k := Param{Name: "k", Doc: "states per process", Default: 3, Min: 2, Max: 8}
	good := Info{Name: "kring", Params: []Param{k, {Name: "max-rounds", Doc: "rounds", Default: 0, Min: 0, Max: 0}}}
	if err := good.CheckParams(); err != nil {
		t.Fatalf("a good declaration refused: %v", err)
	}
	for _, c := range []struct {
		params []Param
		want   string
	}{
		{[]Param{{Name: "K", Doc: "d", Default: 1, Min: 1, Max: 1}}, `parameter name "K": want lower-case letters`},
		{[]Param{{Name: "", Doc: "d"}}, `parameter name "": want lower-case`},
		{[]Param{{Name: "bound", Doc: "d"}}, `parameter name "bound" is a flag of every spec's`},
		{[]Param{{Name: "n", Doc: "d"}}, `parameter name "n" is a flag`},
		{[]Param{k, k}, "declares parameter k twice"},
		{[]Param{{Name: "k", Default: 1, Min: 1, Max: 1}}, "parameter k has no doc"},
		{[]Param{{Name: "k", Doc: "d", Default: 9, Min: 2, Max: 8}}, "want Min ≤ Default ≤ Max, got 2 ≤ 9 ≤ 8"},
		{[]Param{{Name: "k", Doc: "d", Default: 3, Min: 4, Max: 2}}, "want Min ≤ Default ≤ Max"},
	} {
		err := Info{Name: "kring", Params: c.params}.CheckParams()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "spec kring") {
			t.Errorf("%+v: %v, want %q", c.params, err, c.want)
		}
	}
}

// ResolveParams fills in every default, sorted by name, and refuses what
// the spec does not declare, twice given values and values out of range.
func TestResolveParams(t *testing.T) {
	i := Info{Name: "two", Params: []Param{{Name: "z", Doc: "d", Default: 1, Min: 0, Max: 4}, {Name: "a", Doc: "d", Default: 5, Min: 5, Max: 9}}}
	for _, c := range []struct {
		given []model.Param
		want  string
	}{
		{nil, "[{a 5} {z 1}]"},
		{[]model.Param{{Name: "z", Value: 4}}, "[{a 5} {z 4}]"},
		{[]model.Param{{Name: "z", Value: 0}, {Name: "a", Value: 9}}, "[{a 9} {z 0}]"},
	} {
		got, err := i.ResolveParams(c.given)
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("%v: %v, %v; want %s", c.given, got, err, c.want)
		}
	}
	for _, c := range []struct {
		info  Info
		given []model.Param
		want  string
	}{
		{i, []model.Param{{Name: "k", Value: 1}}, `spec two has no parameter "k"; its parameters: z (0..4), a (5..9) (see mc list)`},
		{i, []model.Param{{Name: "z", Value: 5}}, "parameter z of spec two must be from 0 to 4, got 5"},
		{i, []model.Param{{Name: "a", Value: 4}}, "parameter a of spec two must be from 5 to 9, got 4"},
		{i, []model.Param{{Name: "a", Value: 6}, {Name: "a", Value: 6}}, "parameter a is given twice"},
		{Info{Name: "none"}, []model.Param{{Name: "k", Value: 1}}, `spec none has no parameter "k": it declares none (see mc list)`},
	} {
		if got, err := c.info.ResolveParams(c.given); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, %v; want %q", c.given, got, err, c.want)
		}
	}
	if got, err := (Info{Name: "none"}).ResolveParams(nil); got != nil || err != nil {
		t.Errorf("a spec without parameters: %v, %v", got, err)
	}
}
