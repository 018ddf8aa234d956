// Package tracefiletest records trace files of registered specs for the
// tests of the packages that read them.
package tracefiletest

import (
	"bytes"
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
)

// Record checks spec with parameters p and returns the system and the trace
// file of the property called name: its counterexample, or a witness's run.
func Record(t testing.TB, spec string, p model.Params, name string) (checker.Target, *tracefile.File) {
	t.Helper()
	e, err := specs.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	target, err := e.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	r := target.Check(context.Background(), checker.Options{Continue: true})
	for i := range r.Props {
		if r.Props[i].Name == name {
			f, err := tracefile.Build(target, r.Meaning, &r.Props[i], "test")
			if err != nil {
				t.Fatal(err)
			}
			return target, f
		}
	}
	t.Fatalf("spec %s has no property %s", spec, name)
	return nil, nil
}

// JSON is Record's trace file as its bytes.
func JSON(t testing.TB, spec string, p model.Params, name string) []byte {
	t.Helper()
	_, f := Record(t, spec, p, name)
	var buf bytes.Buffer
	if err := tracefile.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
