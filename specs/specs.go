// Package specs is the registry of mc's algorithms: one entry per spec
// package, with its seed reference, variants and defaults.
package specs

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"mc/checker"
	"mc/checker/liveness"
	"mc/model"
	"mc/ring"
	"mc/specs/changroberts"
	"mc/specs/dkr"
	"mc/specs/franklin"
	"mc/specs/hp"
	"mc/specs/hs"
	"mc/specs/lelann"
	"mc/specs/misra"
	"mc/specs/suzukikasami"
	"mc/specs/tokenring"
	"mc/specs/vitanyi"
	"mc/specs/vlt"
)

// Entry describes one spec.
type Entry struct {
	Name  string
	Title string
	// Ref is the seed section the spec comes from.
	Ref      string
	Variants []model.Variant
	// DefaultN is the ring size when --n and --ids are not given.
	DefaultN int
	// Symmetry is the group of ring symmetries the spec's behaviour is
	// invariant under, with every process an initiator; --all-ids checks
	// one arrangement per class. The zero value is rotation. Reflection is
	// sound for a spec on a ring without a common orientation whose system
	// starts from every orientation assignment (vlt without --orientation,
	// which --all-ids refuses): reflecting the ring maps that set of initial
	// states onto itself (ring/orientation.go).
	Symmetry ring.Symmetry
	// Clocked says the spec has local clocks and reads Params.Drift
	// (--drift); the CLI refuses the flag for the others.
	Clocked bool
	// DefaultIDs, if not nil, gives the ids of a ring of n when --ids is
	// not given; nil means n, n-1, …, 1 (ring.DescendingIDs).
	DefaultIDs func(n int) []int
	// Bidirectional specs run on a ring with two ports per processor and
	// take --links and --orientation (model.Params.Duplex, Orientation).
	// hs and franklin, whose seeds fix full-duplex links and a common
	// orientation, do not set it.
	Bidirectional bool
	// Anonymous specs give their processes no ids (the mutual-exclusion
	// algorithms): the CLI refuses --ids and --all-ids for them.
	Anonymous bool
	// Chan is the channel semantics when --chan is not given.
	Chan model.ChanKind
	// Fair is the fairness liveness is checked under when --fair is not
	// given; the zero value is weak fairness per process.
	Fair liveness.Fairness
	// Bound says what Params.Bound (--bound) limits and its default, e.g.
	// "requests per process, default 1"; "" when the spec has no bound.
	Bound string
	// Build instantiates the spec; it validates p.
	Build func(p model.Params) (checker.Target, error)
	// Source is the spec package's Go files, which Hash identifies the
	// spec's behaviour by.
	Source fs.FS
}

func bind[S any](f func(model.Params) (*model.System[S], error)) func(model.Params) (checker.Target, error) {
	return func(p model.Params) (checker.Target, error) {
		sys, err := f(p)
		if err != nil {
			return nil, err
		}
		return checker.Of(sys), nil
	}
}

var all = []Entry{
	{Name: "changroberts", Title: "Chang–Roberts election, unidirectional ring", Ref: changroberts.Ref, Source: changroberts.Source,
		Variants: changroberts.Variants, DefaultN: 5, Build: bind(changroberts.New)},
	{Name: "franklin", Title: "Franklin election, bidirectional ring: compare with both nearest active neighbours", Ref: franklin.Ref, Source: franklin.Source,
		Variants: franklin.Variants, DefaultN: 5, Build: bind(franklin.New)},
	{Name: "hs", Title: "Hirschberg–Sinclair election, bidirectional ring: candidatures over doubling distances", Ref: hs.Ref, Source: hs.Source,
		Variants: hs.Variants, DefaultN: 5, Build: hs.Build},
	{Name: "lelann", Title: "LeLann-style election: every id sent, only larger passed on", Ref: lelann.Ref, Source: lelann.Source,
		Variants: lelann.Variants, DefaultN: 5, Build: bind(lelann.New)},
	{Name: "dkr", Title: "Dolev–Klawe–Rodeh / Peterson election, unidirectional ring", Ref: dkr.Ref, Source: dkr.Source,
		Variants: dkr.Variants, DefaultN: 5, Build: bind(dkr.New)},
	{Name: "hp", Title: "Higham–Przytycka election (BASIC, ELECT), unidirectional ring", Ref: hp.Ref, Source: hp.Source,
		Variants: hp.Variants, DefaultN: 5, Build: bind(hp.New)},
	{Name: "vitanyi", Title: "Vitányi's clock-based election, lowest id wins", Ref: vitanyi.Ref, Source: vitanyi.Source,
		Variants: vitanyi.Variants, DefaultN: 4, Clocked: true, Build: bind(vitanyi.New)},
	{Name: "vlt", Title: "van Leeuwen–Tan Algorithm E, bidirectional ring without orientation", Ref: vlt.Ref, Source: vlt.Source,
		Variants: vlt.Variants, DefaultN: 5, DefaultIDs: vlt.DefaultIDs, Bidirectional: true,
		Symmetry: ring.RotationReflection, Build: bind(vlt.New)},
	{Name: "tokenring", Title: "mutual exclusion by a token circulating on a unidirectional ring", Ref: tokenring.Ref, Source: tokenring.Source,
		Variants: tokenring.Variants, DefaultN: 4, Anonymous: true, Build: bind(tokenring.New)},
	{Name: "suzukikasami", Title: "Ricart–Agrawala / Suzuki–Kasami token mutual exclusion, fully connected", Ref: suzukikasami.Ref, Source: suzukikasami.Source,
		Variants: suzukikasami.Variants, DefaultN: 3, Anonymous: true, Chan: model.Bag, Bound: "requests per process, default 1",
		Build: bind(suzukikasami.New)},
	{Name: "misra", Title: "Misra's ping–pong token loss detection and regeneration, unidirectional ring", Ref: misra.Ref, Source: misra.Source,
		Variants: misra.Variants, DefaultN: 3, Anonymous: true, Bound: "token losses, default 1", Fair: liveness.FairAction,
		Build: bind(misra.New)}}

// IDs is the spec's default arrangement of ids for a ring of n.
func (e Entry) IDs(n int) []int {
	if e.DefaultIDs != nil {
		return e.DefaultIDs(n)
	}
	return ring.DescendingIDs(n)
}

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
