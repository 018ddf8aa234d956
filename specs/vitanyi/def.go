package vitanyi

import "github.com/ringcheck/mc/specs/specdef"

// Spec is Vitányi's election for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "vitanyi", Title: "Vitányi's clock-based election, lowest id wins", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 4},
	Takes: specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Claims | specdef.Drift,
	Sweeps: []specdef.Profile{
		{Name: "vitanyi", Measure: "messages", Bits: "bits", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; drift unbounded",
			Formula: "— (unbounded drift: only Le Lann's cap 2N + N(N+1)/2, 001 §1)", Ref: "001 §1",
			Ns: specdef.Span(3, 4), CI: []int{3}, Plotted: true, Note: bitsNote},
		{Name: "vitanyi-drift1", Drift: 1, Measure: "messages", Bits: "bits", Counted: "all messages (wakeups, M_j, sleepwells), the spec's ghost counter; --drift 1",
			Formula: "— (linear, 2N + N(u/m)(f(l)+1)Σc(i)/f(i), depends on the arrangement; the spec's messages-within-bound invariant checks it per arrangement)", Ref: "001 §2 (2)",
			Ns: specdef.Span(3, 4), CI: specdef.Span(3, 4), Note: bitsNote}},
	Source: Source}, Build: New}

// bitsNote says how the ghost counter bits counts.
const bitsNote = "Bits are vitanyi's ghost counter `bits`: 1 per wakeup and sleepwell, the dyadic length of j per M_j (001 §2)."
