package paramflags

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/specdef"
)

// ParseParams reads the values of --param, each NAME=VALUE with an integer
// VALUE, in the order given; a name given twice is refused. Whether the
// spec declares each name, and its range, is the spec's to check
// (specdef.Info.ResolveParams).
func ParseParams(values []string) ([]model.Param, error) {
	var out []model.Param
	seen := map[string]bool{}
	for _, text := range values {
		name, value, ok := strings.Cut(text, "=")
		if !ok || !specdef.ValidName(name) {
			return nil, fmt.Errorf("%q: want NAME=VALUE, e.g. k=3", text)
		}
		v, err := strconv.Atoi(value)
		if err != nil {
			return nil, fmt.Errorf("%q: the value of %s is not an integer", text, name)
		}
		if seen[name] {
			return nil, fmt.Errorf("parameter %s is given twice", name)
		}
		seen[name] = true
		out = append(out, model.Param{Name: name, Value: v})
	}
	return out, nil
}
