package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Param is the value of one of a spec's own parameters (--param NAME=VALUE):
// a quantity of the algorithm itself that no ring knob says, such as the K
// of Dijkstra's K-state token ring. The spec declares it (specdef.Param:
// its doc, default and range); the registry fills in the defaults, so that
// a system's Params name every declared parameter and a run's meaning
// holds them all.
type Param struct {
	Name  string
	Value int
}

// Param is the value of the spec's own parameter name. A spec's Build reads
// its parameters with it; the error names what is missing, which happens
// only to a Build called without the registry (a spec's own tests), since
// the registry fills in every declared parameter.
func (p *Params) Param(name string) (int, error) {
	for _, o := range p.Own {
		if o.Name == name {
			return o.Value, nil
		}
	}
	return 0, fmt.Errorf("no value for the spec's parameter %q (declare it in specdef.Info.Params; the registry fills in its default)", name)
}

// OwnFrom are the values of a spec's own parameters that values holds, by
// name, sorted by name as Params.Own keeps them; nil for none.
func OwnFrom(values map[string]int) []Param {
	var out []Param
	for _, name := range slices.Sorted(maps.Keys(values)) {
		out = append(out, Param{Name: name, Value: values[name]})
	}
	return out
}

// OwnValues are own's values by name, as files record them; nil for none.
func OwnValues(own []Param) map[string]int {
	if len(own) == 0 {
		return nil
	}
	out := make(map[string]int, len(own))
	for _, o := range own {
		out[o.Name] = o.Value
	}
	return out
}

// ownString renders the spec's own parameters as String shows them,
// " k=3 m=1", in their order (by name); "" when there are none.
func (p *Params) ownString() string {
	var b strings.Builder
	for _, o := range p.Own {
		fmt.Fprintf(&b, " %s=%d", o.Name, o.Value)
	}
	return b.String()
}
