package checker

import (
	"math/rand/v2"
	"testing"

	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/model"
)

// The packed log gives back every origin as added, by index and in order:
// initial states, parents that grow by small and large steps or fall, and
// actions at the limits of the packing.
func TestTraceLogRoundTrips(t *testing.T) {
	const rules, procs = 256, packed.MaxProcs
	log := newTraceLog(rules, procs)
	rng := rand.New(rand.NewPCG(1, 2))
	var want []origin
	for i := 0; i < 3; i++ {
		want = append(want, origin{parent: noParent, action: uint32(i)})
	}
	parent := uint32(0)
	for i := 0; i < 5000; i++ {
		switch rng.IntN(10) {
		case 0:
			parent += uint32(rng.IntN(1 << 30))
		case 1:
			parent -= uint32(rng.IntN(int(parent) + 1))
		default:
			parent += uint32(rng.IntN(3))
		}
		a := model.Action{Rule: rng.IntN(rules), Proc: rng.IntN(procs), Choice: rng.IntN(packed.MaxChoices)}
		if i%7 == 0 {
			a = model.Action{Rule: rules - 1, Proc: procs - 1, Choice: packed.MaxChoices - 1}
		}
		want = append(want, origin{parent: parent, action: packed.Action(a)})
	}
	for i, l := range want {
		if id, _ := log.add(l); id != uint32(i) {
			t.Fatalf("origin %d got index %d", i, id)
		}
	}
	for i, l := range want {
		if got, err := log.at(uint32(i)); err != nil || got != l {
			t.Fatalf("origin %d: got %+v, %v; want %+v", i, got, err, l)
		}
	}
	i := 0
	for l := range log.all() {
		if l != want[i] {
			t.Fatalf("origin %d in order: got %+v, want %+v", i, l, want[i])
		}
		i++
	}
	if i != len(want) || log.len() != len(want) {
		t.Fatalf("%d origins in order, len %d; want %d", i, log.len(), len(want))
	}
}
