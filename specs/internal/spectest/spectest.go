// Package spectest holds the helpers the specs' tests share.
package spectest

import (
	"context"
	"testing"

	"mc/checker"
	"mc/model"
)

// Run checks sys with opt and stops the test on an internal error of mc.
func Run[S any](t testing.TB, sys *model.System[S], opt checker.Options) checker.Result {
	t.Helper()
	r := checker.Run(context.Background(), sys, opt)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r
}

// Prop returns the verdict on property name, stopping the test if the run
// has no such property.
func Prop(t testing.TB, r *checker.Result, name string) checker.PropResult {
	t.Helper()
	for _, p := range r.Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %s", name)
	return checker.PropResult{}
}

// Labels lists the actions of steps as the trace prints them.
func Labels(steps []checker.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Label
	}
	return out
}

// Actions lists the actions of steps, for checker.Replay.
func Actions(steps []checker.Step) []model.Action {
	out := make([]model.Action, len(steps))
	for i, s := range steps {
		out[i] = s.Action
	}
	return out
}
