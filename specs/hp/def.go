package hp

import "github.com/ringcheck/mc/specs/specdef"

// Spec is Higham–Przytycka for the registry.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "hp", Title: "Higham–Przytycka election (BASIC, ELECT), unidirectional ring", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5},
	Takes:  specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Cap | specdef.Claims,
	Sweeps: []specdef.Profile{elect(), electLiteral(), profile("basic"), profile("witness"), profile("distance"), witnessLiteral()},
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
	p.Ns = specdef.Span(3, 8)
	p.Note = "Theorem 1 leaves the O(n) term open; hp checks instead its proof's finite form, with the proof's own constants: the inequality per pair of rounds (theorem-1-round-pairs) and the run's total (theorem-1-total)."
	return p
}

// electLiteral is the profile of ELECT read literally: the distance
// counter checked before any other rule, as 003 prints it. Theorem 1's
// constant is kept so that "c needed" compares the two readings.
func electLiteral() specdef.Profile {
	p := profile("elect-literal")
	p.Lead, p.Ns = 1.271, specdef.Span(3, 8)
	p.Note = "The two readings of ELECT (003) differ in one place: where a message's distance counter runs out at a node of its own round. " +
		"003 prints \"if counter reaches 0 then the message is promoted without checking any other conditions\"; read so (this table), the message is promoted there and goes on. " +
		"mc's default reading (table hp) compares it with the node first, as BASIC's rules do for every message that meets a node of its round, and destroys it where BASIC would. " +
		"The literal reading still elects one leader in every run, but the promoted messages cost edges, and another node wins for some arrangements (hp's package doc); " +
		"Theorem 1's per-round inequality (theorem-1-round-pairs) fails under it (ids 1,3,2,4), so the c needed here is no evidence for or against the theorem."
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
