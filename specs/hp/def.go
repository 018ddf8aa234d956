package hp

import "mc/specs/specdef"

// Spec is Higham–Przytycka for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "hp", Title: "Higham–Przytycka election (BASIC, ELECT), unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes:  specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{elect(), profile("basic"), profile("witness"), profile("distance"), witnessLiteral()},
	Source: Source}, Build: New}

// profile is the profile of one variant: edges traversed by election
// messages (003 counts edges); only ELECT has a bound.
func profile(variant string) specdef.Profile {
	return specdef.Profile{Name: "hp-" + variant, Variant: variant, Uncounted: specdef.Announcement,
		Counted: "election messages, each edge counted (the ⟨leader⟩ announcement not counted)",
		Formula: "— (003 gives one only for ELECT)", Ref: "003",
		Phases: "rounds", Phase: "rounds", Ns: specdef.Span(3, 6), CI: []int{4}}
}

// elect is the profile of ELECT, the default variant, with Theorem 1's
// bound.
func elect() specdef.Profile {
	p := profile("elect")
	p.Name = "hp"
	p.Formula, p.Ref, p.Lead, p.Plotted = "1.271 n log₂ n + O(n)", "003 Theorem 1", 1.271, true
	p.Note = "Theorem 1 leaves the O(n) term open; hp checks instead the inequality its proof sums per pair of rounds, with the proof's own constants (the property theorem-1-round-pairs). " +
		"n = 7 (1.1 million states, over a minute on a shared machine) is left out of the regeneration: `go run ./cmd/mc sweep hp --n 7`."
	return p
}

// witnessLiteral is the profile of the variant that does not always
// terminate.
func witnessLiteral() specdef.Profile {
	p := profile("witness-literal")
	p.CI = []int{4, 5} // n = 5 has cycles
	p.Note = "This reading of promotion by witness does not always terminate (hp's package doc): a message promoted by witness into a round that no node hosts circles the ring for ever. " +
		"A row with such an arrangement has no cost; it shows the first cycle found, as a run prefix and the steps that repeat."
	return p
}
