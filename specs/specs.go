// Package specs is the registry of mc's algorithms: one line per spec
// package, naming the value it exports (specdef.Spec), which the registry
// binds to the checker.
package specs

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/dkr"
	"github.com/ringcheck/mc/specs/franklin"
	"github.com/ringcheck/mc/specs/hp"
	"github.com/ringcheck/mc/specs/hs"
	"github.com/ringcheck/mc/specs/lelann"
	"github.com/ringcheck/mc/specs/misra"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/specs/suzukikasami"
	"github.com/ringcheck/mc/specs/tokenhandshake"
	"github.com/ringcheck/mc/specs/tokenring"
	"github.com/ringcheck/mc/specs/vitanyi"
	"github.com/ringcheck/mc/specs/vlt"
)

// builtin are mc's own specs, in the order results/README.md lists their
// sweeps.
var builtin = []Entry{
	Of(changroberts.Spec),
	Of(lelann.Spec),
	OfSplit(hs.Spec),
	Of(franklin.Spec),
	Of(dkr.Spec),
	Of(hp.Spec),
	Of(vlt.Spec),
	Of(vitanyi.Spec),
	Of(tokenring.Spec),
	Of(tokenhandshake.Spec),
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
		sys, err := buildOwn(s.Info, p, s.Build)
		if err != nil {
			return nil, err
		}
		return checker.Of(sys), nil
	}, simulate: func(p model.Params) (simulate.System, error) {
		sys, err := buildOwn(s.Info, p, s.Build)
		if err != nil {
			return nil, err
		}
		return simulate.Of(sys), nil
	}}
}

// OfSplit registers a spec whose variants have two state types.
func OfSplit[S, T any](s specdef.Split[S, T]) Entry {
	build := func(p model.Params) (*model.System[S], *model.System[T], error) {
		var err error
		if p.Own, err = s.ResolveParams(p.Own); err != nil {
			return nil, nil, err
		}
		return s.Build(p)
	}
	return Entry{Info: s.Info, build: func(p model.Params) (checker.Target, error) {
		a, b, err := build(p)
		switch {
		case err != nil:
			return nil, err
		case a != nil:
			return checker.Of(a), nil
		}
		return checker.Of(b), nil
	}, simulate: func(p model.Params) (simulate.System, error) {
		a, b, err := build(p)
		switch {
		case err != nil:
			return nil, err
		case a != nil:
			return simulate.Of(a), nil
		}
		return simulate.Of(b), nil
	}}
}

// buildOwn builds the spec with its own parameters checked and every
// default filled in (specdef.Info.ResolveParams), whoever made p: the
// flags, a file, a sweep, mc list.
func buildOwn[S any](info specdef.Info, p model.Params, build func(model.Params) (*model.System[S], error)) (*model.System[S], error) {
	var err error
	if p.Own, err = info.ResolveParams(p.Own); err != nil {
		return nil, err
	}
	return build(p)
}

// all are the specs this program checks: mc's own, unless Use replaced
// them, then a program's own (Use). Set once, before any command runs.
var all = builtin

// Use sets the specs this program checks: own, after mc's own when
// withBuiltin. A program of one's own calls it once, before anything looks
// a spec up (cli.Main does). It refuses a spec without a name or a Build,
// and two specs of one name, naming them.
func Use(withBuiltin bool, own ...Entry) error {
	var base []Entry
	if withBuiltin {
		base = builtin
	}
	return register(base, own)
}

// Add registers own after the specs this program checks already, as Use
// does; the conformance kit registers a spec of one's own this way.
func Add(own ...Entry) error { return register(all, own) }

// register sets the registry to base followed by own, refusing what Use
// refuses.
func register(base, own []Entry) error {
	next := slices.Clone(base)
	seen := make(map[string]bool, len(next)+len(own))
	for _, e := range next {
		seen[e.Name] = true
	}
	for _, e := range own {
		switch {
		case e.build == nil:
			return fmt.Errorf("spec %q was not made with specs.Of or specs.OfSplit", e.Name)
		case !specdef.ValidName(e.Name):
			return fmt.Errorf("spec name %q: want lower-case letters, digits and '-', starting with a letter", e.Name)
		case seen[e.Name]:
			return fmt.Errorf("two specs are named %q", e.Name)
		case len(e.Variants) == 0:
			return fmt.Errorf("spec %s declares no variant (its first is the default)", e.Name)
		}
		if err := e.CheckParams(); err != nil {
			return err
		}
		seen[e.Name] = true
		next = append(next, e)
	}
	if len(next) == 0 {
		return fmt.Errorf("no spec to check")
	}
	all = next
	return nil
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
