package specdef

import "math"

// Profile is one sweep of a spec's message counts (mc sweep, results/):
// how the sweep counts the spec's messages and which bound of its paper it
// compares them with.
type Profile struct {
	// Name names the sweep's table in results/: the spec's name, or the
	// spec's and a variant's ("changroberts-all-initiate").
	Name string
	// Kinds are the message kinds counted (nil: all), read off the spec's
	// View, less the Uncounted ones (an announcement round the spec adds
	// to its seed); Measure instead names the spec's ghost counter for
	// specs without a View (then the spec is built with claims).
	Kinds, Uncounted []string
	Measure          string
	// Counted says in words what is counted, for the tables;
	// SampledCounted, if not empty, says it for the sampled rows (mc sweep
	// --sample), where they count otherwise.
	Counted, SampledCounted string
	// Bound is the paper's bound at n, and Formula how the paper writes
	// it; Bound nil means the paper gives none usable here.
	Bound   func(n int) float64
	Formula string
	// Mean, if not nil, is the average over runs that the literature
	// gives at n, MeanFormula how it writes it and MeanRef where;
	// mc simulate compares its sampled mean with it.
	Mean                 func(n int) float64
	MeanFormula, MeanRef string
	// Lead, if not 0, is a in a bound a·n·log₂ n + O(n) whose O(n) term
	// the paper leaves open: each row then reports the smallest c with
	// worst ≤ a·n·log₂ n + c·n.
	Lead float64
	// Ref cites the bound.
	Ref string
	// Phases names the spec's measure of the phases (rounds, stages) a run
	// reaches, Phase what the spec calls them, and PhaseBound (nil: none)
	// and PhaseFormula the paper's bound on them. GhostPhases says the
	// measure reads ghosts, so the spec is built with claims; the tests
	// check that this adds no states.
	Phases, Phase string
	PhaseBound    func(n int) float64
	PhaseFormula  string
	GhostPhases   bool
	// Bits names the spec's ghost measure of the bits sent, for specs whose
	// paper defines message sizes.
	Bits string
	// Ns is the range results/ covers, CI the quick subset mc ci checks.
	Ns, CI []int
	// ReducedFrom, if not 0, is the smallest n whose classes are computed
	// on reduced graphs (mc sweep --por): sizes whose full graphs are out
	// of reach. Their rows' messages are exact, their states those of the
	// reduced graphs, and phases read off a ghost are not computed
	// (docs/sweeps.md); each such row says so.
	ReducedFrom int
	// Variant is the variant swept (empty: the default); Drift is
	// Params.Drift for clock-based specs.
	Variant string
	Drift   int
	// CausalUpTo, if not 0, is the largest n for which the longest causal
	// chain over all runs is computed (it explores more states than the
	// cost itself: see sweep/causal.go).
	CausalUpTo int
	// Plotted puts the profile in the plot of results/README.md.
	Plotted bool
	// Note is printed under the table in results/README.md.
	Note string
}

// Claims says whether the spec is built with claims (ghosts on): when a
// measure the profile reads is a ghost.
func (p Profile) Claims() bool { return p.Measure != "" || p.Bits != "" || p.GhostPhases }

// Announcement is the kind of the ⟨leader j⟩ announcement that dkr, hp and
// vlt add to their seeds, and elected the 1-bit flag of vlt's modified
// version: what their profiles leave uncounted.
var Announcement = []string{"leader", "elected"}

// Log2 is log₂ n, for the bounds.
func Log2(n int) float64 { return math.Log2(float64(n)) }

// Span is a, a+1, …, b: a profile's range of ring sizes.
func Span(a, b int) []int {
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out
}
