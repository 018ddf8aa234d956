package por_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs/changroberts"
)

// A footprint that hides what a rule touches fails CheckFootprints: here
// recv no longer admits receiving, so a send to an empty channel enables
// it behind the reduction's back.
func TestCheckFootprintsCatchesAWrongFootprint(t *testing.T) {
	sys, _ := changroberts.New(model.Params{N: 4, IDs: []int{3, 1, 4, 2}})
	if err := por.CheckFootprints(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	recv := sys.Rules[1].Footprint
	sys.Rules[1].Footprint = func(p int) model.Footprint {
		f := recv(p)
		f.Recv = nil
		return f
	}
	if err := por.CheckFootprints(context.Background(), sys); err == nil || !strings.Contains(err.Error(), "footprints say it cannot") {
		t.Fatalf("wrong footprint: %v", err)
	}
}
