package specs

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/example"
	"github.com/ringcheck/mc/specs/specdef"
)

// codecLimit bounds the states checked per system: only misra's variants
// (70,796 to 95,612 states at n = 3, each with many enabled actions, each
// stepped on copies and computed twice) are cut, to their first states in
// breadth-first order; checking them whole takes longer than a package's
// test timeout on two cores.
const codecLimit = 10_000

// Every spec's hand-written Copy, Encode and Decode keep the contract the
// stores rely on (checker.CheckCodec) on every state reachable at n = 3 (up to codecLimit),
// in every variant, with claims off and, where the spec takes --claims,
// on (ghost variables are encoded too).
func TestEveryCodecRoundTrips(t *testing.T) {
	for _, e := range All() {
		claims := []bool{false}
		if e.Takes.Has(specdef.Claims) {
			claims = append(claims, true)
		}
		for _, v := range e.Variants {
			for _, c := range claims {
				name := e.Name + "/" + v.Name
				if c {
					name += "/claims"
				}
				t.Run(name, func(t *testing.T) {
					p := model.Params{N: 3, IDs: e.IDs(3), Variant: v.Name, Chan: e.Defaults.Chan, Claims: c}
					if e.Takes.Has(specdef.Drift) {
						p.Drift = 1 // the scaled clocks need a drift bound
					}
					tg, err := e.Build(p)
					if err != nil {
						t.Fatal(err)
					}
					states, complete, err := tg.CheckCodec(context.Background(), codecLimit)
					if err != nil {
						t.Fatal(err)
					}
					if !complete {
						t.Logf("checked the first %d states", states)
					}
				})
			}
		}
	}
}

// The guide's worked example is registrable as it stands: its value binds
// to the checker, hashes, passes on its defaults and keeps the codec
// contract, as a registered spec's does.
func TestTheGuidesExampleRegisters(t *testing.T) {
	e := Of(example.Spec)
	if _, err := e.Hash(); err != nil {
		t.Fatal(err)
	}
	tg, err := e.Build(model.Params{N: 3, IDs: e.IDs(3)})
	if err != nil {
		t.Fatal(err)
	}
	if r := tg.Check(context.Background(), checker.Options{}); r.Verdict != checker.Pass {
		t.Fatalf("the example on its defaults: %s", r.Verdict)
	}
	if _, complete, err := tg.CheckCodec(context.Background(), 0); err != nil || !complete {
		t.Fatalf("the example's codec: complete %v, %v", complete, err)
	}
}
