package conformance

import (
	"testing"

	"github.com/ringcheck/mc/specs"
)

// mc's own specs pass the kit, but for their mutants: each spec package's
// mutation suite (mutants_test.go, docs/mutants.md) kills its properties
// with the seeds' slips, at the sizes where they show.

func TestEveryRegisteredSpecCitesItsSources(t *testing.T) {
	for _, e := range specs.All() {
		t.Run(e.Name, func(t *testing.T) { Cites(t, e) })
	}
}

// The codec contract on every state reachable at n = 3, up to 10,000: only
// misra's variants (70,796 states and more at n = 3, each with many
// enabled actions, each stepped on copies and computed twice) are cut, to
// their first states in breadth-first order.
func TestEveryCodecRoundTrips(t *testing.T) {
	for _, e := range specs.All() {
		t.Run(e.Name, func(t *testing.T) { Codec(t, e, Options{N: 3, MaxStates: 10_000}) })
	}
}

func TestEverySpecIsDeterministic(t *testing.T) {
	for _, e := range specs.All() {
		t.Run(e.Name, func(t *testing.T) { Deterministic(t, e, Options{MaxStates: 20_000}) })
	}
}

// Every registered spec, with every option that changes the meaning of a
// run, survives interruption, resume and replay; and every option is
// exercised by some spec.
func TestEveryMeaningSurvivesResumeAndReplay(t *testing.T) {
	exercised := map[string]int{}
	for _, e := range specs.All() {
		t.Run(e.Name, func(t *testing.T) {
			for _, o := range Meaning(t, e, Options{}) {
				exercised[o]++
			}
		})
	}
	for _, o := range options {
		if exercised[o.name] == 0 && o.name != "param" { // none of mc's specs declares one: TestParamSurvivesResumeAndReplay
			t.Errorf("option %s: no spec was checked with it (every run was refused or too large)", o.name)
		}
	}
}

func TestEverySpecStoppedInLevelZeroResumesOrSaysWhy(t *testing.T) {
	for _, e := range specs.All() {
		t.Run(e.Name, func(t *testing.T) { LevelZero(t, e, Options{}) })
	}
}
