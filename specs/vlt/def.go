package vlt

import (
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/specdef"
)

// Spec is van Leeuwen–Tan Algorithm E for the registry. Its symmetry
// includes reflection: without --orientation its system starts from every
// orientation assignment.
var Spec = specdef.Spec[State]{Info: specdef.Info{
	Name: "vlt", Title: "van Leeuwen–Tan Algorithm E, bidirectional ring without orientation", Ref: Ref,
	Variants: Variants, Defaults: specdef.Defaults{N: 5, IDs: DefaultIDs},
	Takes:    specdef.IDs | specdef.Initiators | specdef.Chan | specdef.Claims | specdef.Links | specdef.Orientation,
	Symmetry: ring.RotationReflection,
	Sweeps:   []specdef.Profile{profile("e"), profile("modified")},
	Source:   Source}, Build: New}

// profile is the profile of one variant: phase messages, against Prop.
// 3.9's count (2n in phase 0, at most n in each later phase, T phases with
// F_T ≤ n) and its headline 1.44 n log n + O(n).
func profile(variant string) specdef.Profile {
	name, ref := "vlt", "000 Prop. 3.9"
	if variant == "modified" {
		name, ref = "vlt-modified", "000 Prop. 4.2"
	}
	p := specdef.Profile{Name: name, Variant: variant, Uncounted: specdef.Announcement,
		Counted: "phase messages ⟨v,p⟩ (the announcement not counted); every orientation assignment",
		SampledCounted: "phase messages ⟨v,p⟩ (the announcement not counted); one orientation, every processor's ports alike " +
			"(without one vlt starts from every assignment, refused beyond n = 16)",
		Bound:   func(n int) float64 { return float64(MessageBound(n)) },
		Formula: "2n + (T−1)n, T the largest with F_T ≤ n (the proof's count; 1.44 n log₂ n + O(n) in the statement)", Ref: ref,
		Lead:   1.44,
		Phases: "phases", Phase: "phases",
		PhaseBound:   func(n int) float64 { return float64(MaxPhases(n)) },
		PhaseFormula: "T, the largest with F_T ≤ n (≈ 1.44 log₂ n)",
		Ns:           specdef.Span(3, 6), CI: specdef.Span(3, 4), Plotted: true, CausalUpTo: 4,
		Note: "Each graph starts from all 2^n orientation assignments, which is what makes reflection a sound symmetry here. " +
			"At these sizes no run goes past phase 2 (phases are numbered from 0; the phases column counts them, so at most 3), so the phase bound is only weakly exercised (seeds README); the smallest ring on which one does has 8 processors (specs/vlt/phase3_test.go). " +
			"n = 7 is out of reach on one machine: 360 classes, each graph about ten times as large as at n = 6 (it grew tenfold from n = 5 to 6), " +
			"and vlt's rules declare no footprints, so --por does not apply."}
	if variant == "modified" {
		p.CI, p.Plotted = []int{3}, false
	}
	return p
}
