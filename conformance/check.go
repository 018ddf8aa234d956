package conformance

import (
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// Options says where Check runs a spec.
type Options struct {
	// N is the ring size of every check; 0 means the smallest ring the spec
	// takes (2, or 3 with bidirectional links).
	N int
	// MaxStates bounds each run; a configuration larger than that is
	// skipped with a note in the test log, not failed. 0 means 50,000.
	MaxStates int
	// Mutants are the slips a careful reader could make; every property
	// must fail on one of them. None given fails the mutants check: it
	// cannot be skipped by leaving the list out.
	Mutants []Mutant
}

// Check runs the whole kit on spec e (package doc).
func Check(t *testing.T, e specs.Entry, opt Options) {
	t.Run("cites", func(t *testing.T) { Cites(t, e) })
	t.Run("codec", func(t *testing.T) { Codec(t, e, opt) })
	t.Run("deterministic", func(t *testing.T) { Deterministic(t, e, opt) })
	t.Run("meaning", func(t *testing.T) {
		if len(Meaning(t, e, opt)) == 0 {
			t.Error("no option was exercised: every run was refused or too large")
		}
	})
	t.Run("level-0", func(t *testing.T) { LevelZero(t, e, opt) })
	t.Run("mutants", func(t *testing.T) { Mutants(t, e, opt) })
}

// ringSize is the ring every check of e runs at.
func (o Options) ringSize(e specs.Entry) int {
	switch {
	case o.N > 0:
		return o.N
	case e.Takes.Has(specdef.Links):
		return 3
	}
	return 2
}

func (o Options) maxStates() int {
	if o.MaxStates > 0 {
		return o.MaxStates
	}
	return 50_000
}

// configurations are the parameters e is checked with at n: each variant,
// with its claims off and, where the spec takes --claims, on (ghost
// variables are part of the state too). A spec that takes --drift gets a
// drift of 1: a clock-based spec's state space is finite only with one.
func configurations(e specs.Entry, n int) map[string]model.Params {
	claims := []bool{false}
	if e.Takes.Has(specdef.Claims) {
		claims = append(claims, true)
	}
	out := map[string]model.Params{}
	for _, v := range e.Variants {
		for _, c := range claims {
			p := model.Params{N: n, IDs: e.IDs(n), Variant: v.Name, Chan: e.Defaults.Chan, Claims: c}
			if e.Takes.Has(specdef.Drift) {
				p.Drift = 1
			}
			name := v.Name
			if c {
				name += "/claims"
			}
			out[name] = p
		}
	}
	return out
}
