package sweep

import "math"

// Profile is how the sweep counts one spec's messages and which bound of
// its paper it compares them with.
type Profile struct {
	// Spec is the registry name of the spec swept.
	Spec string
	// Kinds are the message kinds counted (nil: all), read off the spec's
	// View; Measure instead names the spec's ghost counter for specs
	// without a View (then the spec is built with claims).
	Kinds   []string
	Measure string
	// Counted says in words what is counted, for the tables.
	Counted string
	// Bound is the paper's bound at n, and Formula how the paper writes
	// it; Bound nil means the paper gives none usable here (only an
	// asymptotic one with an unknown O(n) term).
	Bound   func(n int) float64
	Formula string
	// Ref cites the bound.
	Ref string
	// Ns is the range results/ covers, CI the quick subset mc ci checks.
	Ns, CI []int
	// Variant is the variant swept (empty: the default); Drift is
	// Params.Drift for clock-based specs.
	Variant string
	Drift   int
}

func log2(n int) float64 { return math.Log2(float64(n)) }

func span(a, b int) []int {
	var out []int
	for n := a; n <= b; n++ {
		out = append(out, n)
	}
	return out
}

// Profiles are the sweeps results/ holds, by name: a spec, or a spec and a
// variant ("changroberts-all-initiate").
var Profiles = map[string]Profile{
	"changroberts": {Spec: "changroberts", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Bound: func(n int) float64 { return float64(n * (n + 1) / 2) }, Formula: "n(n+1)/2", Ref: "002 §5.2",
		Ns: span(3, 7), CI: span(3, 6)},
	"changroberts-all-initiate": {Spec: "changroberts", Variant: "all-initiate", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Bound: func(n int) float64 { return float64(n * (n + 1) / 2) }, Formula: "n(n+1)/2", Ref: "002 §5.2",
		Ns: span(3, 7), CI: span(3, 6)},
	"lelann": {Spec: "lelann", Kinds: []string{"elect"}, Counted: "⟨elect⟩ messages (⟨done⟩ not counted)",
		Formula: "— (the seeds README gives none)", Ref: "004",
		Ns: span(3, 7), CI: span(3, 5)},
	"hs": {Spec: "hs", Kinds: []string{"candidature", "response"}, Counted: "candidature and response messages (the ⟨ended⟩ announcement not counted)",
		Bound: func(n int) float64 { return 8 * float64(n) * (1 + log2(n)) }, Formula: "8n(1+log₂ n)", Ref: "002 §5.3",
		Ns: span(3, 4), CI: []int{3}},
	"franklin": {Spec: "franklin", Kinds: []string{"id"}, Counted: "⟨id⟩ messages (the ⟨leader⟩ announcement not counted)",
		Bound: func(n int) float64 { return 2 * float64(n) * (1 + log2(n)) }, Formula: "2n(1+log₂ n)", Ref: "002 §5.5.1",
		Ns: span(3, 5), CI: span(3, 4)},
	"vitanyi": {Spec: "vitanyi", Measure: "messages", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; drift unbounded",
		Formula: "— (unbounded drift: only Le Lann's cap 2N + N(N+1)/2, 001 §1)", Ref: "001 §1",
		Ns: span(3, 4), CI: []int{3}},
	"vitanyi-drift1": {Spec: "vitanyi", Drift: 1, Measure: "messages", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; --drift 1",
		Formula: "— (linear, 2N + N(u/m)(f(l)+1)Σc(i)/f(i), depends on the arrangement; the spec's messages-within-bound invariant checks it per arrangement)", Ref: "001 §2 (2)",
		Ns: span(3, 4), CI: span(3, 4)},
}

// Order is the order of the tables in results/README.md.
var Order = []string{"changroberts", "changroberts-all-initiate", "lelann", "hs", "franklin", "vitanyi", "vitanyi-drift1"}
