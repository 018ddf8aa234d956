// Package specs is the registry of mc's algorithms: one line per spec
// package, naming the value it exports (specdef.Spec), which the registry
// binds to the checker.
package specs

import (
	"fmt"
	"sort"
	"strings"

	"mc/checker"
	"mc/model"
	"mc/simulate"
	"mc/specs/changroberts"
	"mc/specs/dkr"
	"mc/specs/franklin"
	"mc/specs/hp"
	"mc/specs/hs"
	"mc/specs/lelann"
	"mc/specs/misra"
	"mc/specs/specdef"
	"mc/specs/suzukikasami"
	"mc/specs/tokenring"
	"mc/specs/vitanyi"
	"mc/specs/vlt"
)

// all are the specs, in the order results/README.md lists their sweeps.
var all = []Entry{
	Of(changroberts.Spec),
	Of(lelann.Spec),
	OfSplit(hs.Spec),
	Of(franklin.Spec),
	Of(dkr.Spec),
	Of(hp.Spec),
	Of(vlt.Spec),
	Of(vitanyi.Spec),
	Of(tokenring.Spec),
	Of(suzukikasami.Spec),
	Of(misra.Spec),
}

// Entry is one spec: its description and its Build, bound to the checker
// and to mc simulate.
type Entry struct {
	specdef.Info
	build    func(p model.Params) (checker.Target, error)
	simulate simulate.Build
}

// Of registers a spec whose variants share one state type.
func Of[S any](s specdef.Spec[S]) Entry {
	return Entry{Info: s.Info, build: func(p model.Params) (checker.Target, error) {
		sys, err := s.Build(p)
		if err != nil {
			return nil, err
		}
		return checker.Of(sys), nil
	}, simulate: func(p model.Params) (simulate.System, error) {
		sys, err := s.Build(p)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}}
}

// OfSplit registers a spec whose variants have two state types.
func OfSplit[S, T any](s specdef.Split[S, T]) Entry {
	return Entry{Info: s.Info, build: func(p model.Params) (checker.Target, error) {
		a, b, err := s.Build(p)
		switch {
		case err != nil:
			return nil, err
		case a != nil:
			return checker.Of(a), nil
		}
		return checker.Of(b), nil
	}, simulate: func(p model.Params) (simulate.System, error) {
		a, b, err := s.Build(p)
		switch {
		case err != nil:
			return nil, err
		case a != nil:
			return simulate.Of(a), nil
		}
		return simulate.Of(b), nil
	}}
}

// Build instantiates the spec; it validates p.
func (e Entry) Build(p model.Params) (checker.Target, error) { return e.build(p) }

// Simulate instantiates the spec for mc simulate; it validates p.
func (e Entry) Simulate(p model.Params) (simulate.System, error) { return e.simulate(p) }

// Facts is the spec's description (what package sweep reads of it).
func (e Entry) Facts() specdef.Info { return e.Info }

// All returns the specs sorted by name.
func All() []Entry {
	out := append([]Entry(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a spec by name.
func Lookup(name string) (Entry, error) {
	for _, e := range all {
		if e.Name == name {
			return e, nil
		}
	}
	names := make([]string, 0, len(all))
	for _, e := range All() {
		names = append(names, e.Name)
	}
	return Entry{}, fmt.Errorf("unknown spec %q (specs: %s)", name, strings.Join(names, ", "))
}
