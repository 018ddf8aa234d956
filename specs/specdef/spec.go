// Package specdef is what a spec package exports: one value (its Spec)
// that says everything mc needs to know about the algorithm besides its
// rules — name, seed section, variants, defaults, the command-line knobs
// it takes, its symmetry, its sweep profiles — and the function that
// builds it. It builds from nothing under mc/checker, so that no spec does
// (specs/imports_test.go); the registry (package specs) binds Build to the
// checker, and the CLI reads the rest.
package specdef

import (
	"io/fs"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/tokentemplate"
)

// Info is a spec's description: everything but the function that builds
// it, so that it does not depend on the spec's state type.
type Info struct {
	// Name is the registry name (mc check NAME); Title says in a line what
	// the algorithm is; Ref is the seed section it comes from.
	Name, Title, Ref string
	// Variants are the spec's variants; the first is the default.
	Variants []model.Variant
	// Defaults are the parameters a run takes when the flags do not say.
	Defaults Defaults
	// MaxN is the largest ring the spec's state layout holds, which Build
	// refuses beyond; 0 when it has no limit of its own. The CLI refuses
	// a larger --n before it makes the ring's ids or builds anything.
	MaxN int
	// Takes are the knobs the spec reads; the CLI refuses the others for
	// it (--n, --variant and --fair apply to every spec).
	Takes Knob
	// Params are the spec's own parameters (--param), nil for none; the
	// registry refuses a declaration CheckParams finds at fault.
	Params []Param
	// Symmetry is the group of ring symmetries the spec's behaviour is
	// invariant under, with every process an initiator; --all-ids checks
	// one arrangement per class. The zero value is rotation. Reflection is
	// sound for a spec on a ring without a common orientation whose system
	// starts from every orientation assignment (vlt without --orientation,
	// which --all-ids refuses): reflecting the ring maps that set of initial
	// states onto itself (ring/orientation.go).
	Symmetry ring.Symmetry
	// Sweeps are the sweeps of the spec's message counts that results/
	// holds, in the order results/README.md lists them; nil for none.
	Sweeps []Profile
	// Source is the spec package's Go files, by which the registry
	// identifies the spec's behaviour (specs.Entry.Hash).
	Source fs.FS
	// Template, for a spec written as a token-ring process template, is
	// that template: mc check --every-n decides its properties for every
	// ring size (docs/every-n.md). Nil for the others.
	Template *tokentemplate.Template
}

// Defaults are a spec's parameters when the flags do not give them.
type Defaults struct {
	// N is the ring size when --n and --ids are not given.
	N int
	// IDs, if not nil, gives the ids of a ring of n when --ids is not
	// given; nil means n, n-1, …, 1 (ring.DescendingIDs).
	IDs func(n int) []int
	// Chan is the channel semantics when --chan is not given.
	Chan model.ChanKind
	// Fair is the fairness liveness is checked under when --fair is not
	// given; the zero value is weak fairness per process.
	Fair model.Fairness
	// Bound says what Params.Bound (--bound) limits and its default, e.g.
	// "requests per process, default 1"; "" when the spec has no bound.
	Bound string
}

// Spec is a spec whose variants share one state type S.
type Spec[S any] struct {
	Info
	// Build instantiates the spec; it validates p.
	Build func(p model.Params) (*model.System[S], error)
}

// Split is a spec whose variants have two state types (hs: 002's processes
// and 004's hold different variables). Build returns exactly one system,
// the other nil.
type Split[S, T any] struct {
	Info
	Build func(p model.Params) (*model.System[S], *model.System[T], error)
}

// IDs is the spec's default arrangement of ids for a ring of n.
func (i Info) IDs(n int) []int {
	if i.Defaults.IDs != nil {
		return i.Defaults.IDs(n)
	}
	return ring.DescendingIDs(n)
}

// Anonymous says the spec gives its processes no ids (the mutual-exclusion
// algorithms): it does not take --ids.
func (i Info) Anonymous() bool { return !i.Takes.Has(IDs) }
