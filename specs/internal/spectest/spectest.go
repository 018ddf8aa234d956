// Package spectest holds what every spec's tests do: build a system, explore
// it, and look up a property's result.
package spectest

import (
	"context"
	"testing"

	"mc/checker"
	"mc/model"
)

// Check builds the system for p with build and explores it fully; a build
// error or an internal error fails the test.
func Check[S any](t testing.TB, build func(model.Params) (*model.System[S], error), p model.Params) checker.Result {
	t.Helper()
	sys, err := build(p)
	if err != nil {
		t.Fatal(err)
	}
	r := checker.Run(context.Background(), sys, checker.Options{})
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r
}

// Prop is the result of the property called name; a missing one fails the
// test.
func Prop(t testing.TB, r *checker.Result, name string) checker.PropResult {
	t.Helper()
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("%s has no property %s", r.Spec, name)
	return checker.PropResult{}
}
