package sweep

import (
	"math"

	"mc/specs/vlt"
)

// Profile is how the sweep counts one spec's messages and which bound of
// its paper it compares them with.
type Profile struct {
	// Spec is the registry name of the spec swept.
	Spec string
	// Kinds are the message kinds counted (nil: all), read off the spec's
	// View, less the Uncounted ones (an announcement round the spec adds
	// to its seed); Measure instead names the spec's ghost counter for
	// specs without a View (then the spec is built with claims).
	Kinds, Uncounted []string
	Measure          string
	// Counted says in words what is counted, for the tables.
	Counted string
	// Bound is the paper's bound at n, and Formula how the paper writes
	// it; Bound nil means the paper gives none usable here.
	Bound   func(n int) float64
	Formula string
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
	// Variant is the variant swept (empty: the default); Drift is
	// Params.Drift for clock-based specs.
	Variant string
	Drift   int
	// CausalUpTo, if not 0, is the largest n for which the longest causal
	// chain over all runs is computed (it explores more states than the
	// cost itself: see causal.go).
	CausalUpTo int
	// Plotted puts the profile in the plot of results/README.md.
	Plotted bool
	// Note is printed under the table in results/README.md.
	Note string
}

// Claims says whether the spec is built with claims (ghosts on): when a
// measure the profile reads is a ghost.
func (p Profile) Claims() bool { return p.Measure != "" || p.Bits != "" || p.GhostPhases }

func log2(n int) float64 { return math.Log2(float64(n)) }

func span(a, b int) []int {
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out
}

// announcement is the kind of the ⟨leader j⟩ announcement that dkr, hp
// and vlt add to their seeds, and elected the 1-bit flag of vlt's
// modified version.
var announcement = []string{"leader", "elected"}

// hpVariant is the profile of one variant of hp: edges traversed by
// election messages (003 counts edges); only ELECT has a bound.
func hpVariant(variant string) Profile {
	return Profile{Spec: "hp", Variant: variant, Uncounted: announcement,
		Counted: "election messages, each edge counted (the ⟨leader⟩ announcement not counted)",
		Formula: "— (003 gives one only for ELECT)", Ref: "003",
		Phases: "rounds", Phase: "rounds", Ns: span(3, 6), CI: []int{4}}
}

// Profiles are the sweeps results/ holds, by name: a spec, or a spec and a
// variant ("changroberts-all-initiate").
var Profiles = map[string]Profile{
	"changroberts": {Spec: "changroberts", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Bound: func(n int) float64 { return float64(n * (n + 1) / 2) }, Formula: "n(n+1)/2", Ref: "002 §5.2",
		CausalUpTo: 6, Ns: span(3, 7), CI: span(3, 6), Plotted: true},
	"changroberts-all-initiate": {Spec: "changroberts", Variant: "all-initiate", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Bound: func(n int) float64 { return float64(n * (n + 1) / 2) }, Formula: "n(n+1)/2", Ref: "002 §5.2",
		CausalUpTo: 6, Ns: span(3, 7), CI: span(3, 6), Plotted: true},
	"lelann": {Spec: "lelann", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Formula: "— (the seeds README gives none)", Ref: "004",
		CausalUpTo: 6, Ns: span(3, 7), CI: span(3, 5)},
	"hs": {Spec: "hs", Kinds: []string{"candidature", "response"}, Counted: "candidature and response messages (the ⟨ended⟩ announcement not counted)",
		Bound: func(n int) float64 { return 8 * float64(n) * (1 + log2(n)) }, Formula: "8n(1+log₂ n)", Ref: "002 §5.3",
		CausalUpTo: 4, Ns: span(3, 5), CI: []int{3}, Plotted: true,
		Note: "n = 6 is out of reach here: n = 5 has 24 classes, 4.0 million states and 20 million transitions (about 45 CPU-seconds), " +
			"each class's graph grew about tenfold from n = 4 to 5, and n = 6 has 120 classes. " +
			"Phases are not measured: hs counts them in a ghost that adds states (2,221 instead of 1,567 for ids 1,2,3)."},
	"franklin": {Spec: "franklin", Kinds: []string{"id"}, Counted: "⟨id⟩ messages (the ⟨leader⟩ announcement not counted)",
		Bound: func(n int) float64 { return 2 * float64(n) * (1 + log2(n)) }, Formula: "2n(1+log₂ n)", Ref: "002 §5.5.1",
		Phases: "stages", Phase: "stages", GhostPhases: true,
		PhaseBound: func(n int) float64 { return 1 + log2(n) }, PhaseFormula: "1+log₂ n",
		Ns: span(3, 5), CI: span(3, 4), Plotted: true},
	"dkr": {Spec: "dkr", Uncounted: announcement, Counted: "(1, ·) and (2, ·) messages, relays included (the ⟨leader⟩ announcement not counted)",
		Bound:   func(n int) float64 { return float64(2*n*int(math.Ceil(log2(n))) + n) },
		Formula: "2n log n + n, log read as ⌈log₂ n⌉", Ref: "002 §5.4",
		Phases: "stages", Phase: "stages", GhostPhases: true,
		PhaseBound: func(n int) float64 { return 1 + log2(n) }, PhaseFormula: "log₂ n + 1",
		Ns: span(3, 6), CI: span(3, 5), Plotted: true,
		Note: "The worst case is 2n⌊log₂ n⌋ + n at every n here (the tests pin it), so it meets the bound exactly when n is a power of 2, and no run's count depends on the schedule. " +
			"Stages are the ghost counter `stages`: the most (1, ·) messages one process originated. " +
			"n = 7 (2 million states, minutes on a shared machine) is left out of the regeneration: `go run ./cmd/mc sweep dkr --n 7`."},
	"hp":                 elect(),
	"hp-basic":           hpVariant("basic"),
	"hp-witness":         hpVariant("witness"),
	"hp-distance":        hpVariant("distance"),
	"hp-witness-literal": witnessLiteral(),
	"vlt":                vltVariant("e"),
	"vlt-modified":       vltVariant("modified"),
	"vitanyi": {Spec: "vitanyi", Measure: "messages", Bits: "bits", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; drift unbounded",
		Formula: "— (unbounded drift: only Le Lann's cap 2N + N(N+1)/2, 001 §1)", Ref: "001 §1",
		Ns: span(3, 4), CI: []int{3}, Plotted: true, Note: vitanyiBits},
	"vitanyi-drift1": {Spec: "vitanyi", Drift: 1, Measure: "messages", Bits: "bits", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; --drift 1",
		Formula: "— (linear, 2N + N(u/m)(f(l)+1)Σc(i)/f(i), depends on the arrangement; the spec's messages-within-bound invariant checks it per arrangement)", Ref: "001 §2 (2)",
		Ns: span(3, 4), CI: span(3, 4), Note: vitanyiBits},
}

// vitanyiBits says how vitanyi's ghost counter bits counts.
const vitanyiBits = "Bits are vitanyi's ghost counter `bits`: 1 per wakeup and sleepwell, the dyadic length of j per M_j (001 §2)."

// elect is the profile of ELECT, hp's default variant, with Theorem 1's
// bound.
func elect() Profile {
	p := hpVariant("elect")
	p.Formula, p.Ref, p.Lead, p.Plotted = "1.271 n log₂ n + O(n)", "003 Theorem 1", 1.271, true
	p.Note = "Theorem 1 leaves the O(n) term open; the property elect-edges-bound of hp uses c = 1.25. " +
		"n = 7 (1.1 million states, over a minute on a shared machine) is left out of the regeneration: `go run ./cmd/mc sweep hp --n 7`."
	return p
}

// witnessLiteral is the profile of the variant that does not always
// terminate.
func witnessLiteral() Profile {
	p := hpVariant("witness-literal")
	p.CI = []int{4, 5} // n = 5 has cycles
	p.Note = "This reading of promotion by witness does not always terminate (hp's package doc): a message promoted by witness into a round that no node hosts circles the ring for ever. " +
		"A row with such an arrangement has no cost; it shows the first cycle found, as a run prefix and the steps that repeat."
	return p
}

// vltVariant is the profile of one variant of vlt: phase messages, against
// Prop. 3.9's count (2n in phase 0, at most n in each later phase, T phases
// with F_T ≤ n) and its headline 1.44 n log n + O(n).
func vltVariant(variant string) Profile {
	ref := "000 Prop. 3.9"
	if variant == "modified" {
		ref = "000 Prop. 4.2"
	}
	p := Profile{Spec: "vlt", Variant: variant, Uncounted: announcement,
		Counted: "phase messages ⟨v,p⟩ (the announcement not counted); every orientation assignment",
		Bound:   func(n int) float64 { return float64(vlt.MessageBound(n)) },
		Formula: "2n + (T−1)n, T the largest with F_T ≤ n (the proof's count; 1.44 n log₂ n + O(n) in the statement)", Ref: ref,
		Lead:   1.44,
		Phases: "phases", Phase: "phases",
		PhaseBound:   func(n int) float64 { return float64(vlt.MaxPhases(n)) },
		PhaseFormula: "T, the largest with F_T ≤ n (≈ 1.44 log₂ n)",
		Ns:           span(3, 5), CI: span(3, 4), Plotted: true, CausalUpTo: 4,
		Note: "Each graph starts from all 2^n orientation assignments, which is what makes reflection a sound symmetry here. " +
			"At these sizes no run goes past phase 2, so the phase bound is only weakly exercised (seeds README)."}
	if variant == "modified" {
		p.Ns, p.CI, p.Plotted = span(3, 4), []int{3}, false
		p.Note += " n = 5 (2.5 million states, over a minute on a shared machine) is left out of the regeneration: `go run ./cmd/mc sweep vlt --variant modified --n 5`."
	}
	return p
}

// Order is the order of the tables in results/README.md.
var Order = []string{"changroberts", "changroberts-all-initiate", "lelann", "hs", "franklin", "dkr",
	"hp", "hp-basic", "hp-witness", "hp-distance", "hp-witness-literal", "vlt", "vlt-modified", "vitanyi", "vitanyi-drift1"}
