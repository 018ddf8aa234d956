package specdef

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/mc/model"
)

// Param declares one of a spec's own parameters: a quantity of the
// algorithm that no ring knob says, set with --param NAME=VALUE on every
// command that builds a system (Dijkstra's K-state token ring needs its K).
// Unlike --bound, which limits the environment, it is the algorithm's own.
// Its values are integers from Min to Max; Default is the value a run takes
// when --param does not give one. Build reads it with model.Params.Param.
type Param struct {
	// Name is what --param and mc list call it: lower-case letters, digits
	// and '-', a letter first, and none of the flags' own names (n, bound,
	// …), which the parameters' rendering shows beside it.
	Name string
	// Doc says in a line what it is, with its seed section.
	Doc               string
	Default, Min, Max int
}

// reservedParamNames are the names a spec's parameter may not take: those
// of the flags and fields that every spec's parameters are rendered with
// (model.Params.String, runinfo.Meaning.Settings).
var reservedParamNames = []string{"n", "variant", "fair", "param", "orientations"}

// CheckParams checks the spec's declaration of its parameters, naming the
// first fault: a name that cannot be typed or is taken, two parameters of
// one name, an empty doc, a default outside the range.
func (i Info) CheckParams() error {
	seen := map[string]bool{}
	for _, d := range i.Params {
		switch {
		case !ValidName(d.Name):
			return fmt.Errorf("spec %s: parameter name %q: want lower-case letters, digits and '-', starting with a letter", i.Name, d.Name)
		case slices.Contains(reservedParamNames, d.Name) || isKnobFlag(d.Name):
			return fmt.Errorf("spec %s: parameter name %q is a flag of every spec's; choose another", i.Name, d.Name)
		case seen[d.Name]:
			return fmt.Errorf("spec %s declares parameter %s twice", i.Name, d.Name)
		case d.Doc == "":
			return fmt.Errorf("spec %s: parameter %s has no doc", i.Name, d.Name)
		case d.Min > d.Max || d.Default < d.Min || d.Default > d.Max:
			return fmt.Errorf("spec %s: parameter %s: want Min ≤ Default ≤ Max, got %d ≤ %d ≤ %d", i.Name, d.Name, d.Min, d.Default, d.Max)
		}
		seen[d.Name] = true
	}
	return nil
}

// ResolveParams checks the values given for the spec's parameters (by
// --param, or recorded in a file) against its declaration and fills in the
// default of every one not given: the result names each declared parameter
// once, sorted by name, so that a run's meaning holds them all; nil for a
// spec that declares none. It refuses a parameter the spec does not
// declare, naming the ones it does, one given twice, and a value out of
// range, naming the range.
func (i Info) ResolveParams(given []model.Param) ([]model.Param, error) {
	values := make(map[string]int, len(given))
	for _, g := range given {
		d, ok := i.param(g.Name)
		switch {
		case !ok && len(i.Params) == 0:
			return nil, fmt.Errorf("spec %s has no parameter %q: it declares none (see mc list)", i.Name, g.Name)
		case !ok:
			return nil, fmt.Errorf("spec %s has no parameter %q; its parameters: %s (see mc list)", i.Name, g.Name, i.paramNames())
		}
		if _, twice := values[g.Name]; twice {
			return nil, fmt.Errorf("parameter %s is given twice", g.Name)
		}
		if g.Value < d.Min || g.Value > d.Max {
			return nil, fmt.Errorf("parameter %s of spec %s must be from %d to %d, got %d", g.Name, i.Name, d.Min, d.Max, g.Value)
		}
		values[g.Name] = g.Value
	}
	if len(i.Params) == 0 {
		return nil, nil
	}
	out := make([]model.Param, len(i.Params))
	for k, d := range i.Params {
		v, ok := values[d.Name]
		if !ok {
			v = d.Default
		}
		out[k] = model.Param{Name: d.Name, Value: v}
	}
	slices.SortFunc(out, func(a, b model.Param) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// param is the declaration of the parameter called name.
func (i Info) param(name string) (Param, bool) {
	for _, d := range i.Params {
		if d.Name == name {
			return d, true
		}
	}
	return Param{}, false
}

// paramNames lists the spec's parameters with their ranges, "k (2..16), m (0..3)".
func (i Info) paramNames() string {
	names := make([]string, len(i.Params))
	for k, d := range i.Params {
		names[k] = fmt.Sprintf("%s (%d..%d)", d.Name, d.Min, d.Max)
	}
	return strings.Join(names, ", ")
}

// isKnobFlag says whether name is the flag of a knob (knobs).
func isKnobFlag(name string) bool {
	for _, kf := range knobs {
		if kf.flag == name {
			return true
		}
	}
	return false
}

// ValidName says whether name can name a spec or a spec's parameter on the
// command line and in file names: lower-case letters, digits and '-', a
// letter first.
func ValidName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
