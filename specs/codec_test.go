package specs

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/example"
)

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
