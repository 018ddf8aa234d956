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

// On a small ring an entry whose parent is at most shortSteps-1 after the
// one before's takes one byte; the others take the long form, and all come back as
// added.
func TestTraceLogShortEntries(t *testing.T) {
	const rules, procs = 2, 11
	log := newTraceLog(rules, procs)
	rng := rand.New(rand.NewPCG(3, 4))
	want := []origin{{parent: noParent, action: 0}}
	parent, long := uint32(0), 0
	for i := 0; i < 20000; i++ {
		step := uint32(rng.IntN(shortSteps))
		if i%50 == 0 {
			step, long = shortSteps+uint32(rng.IntN(1000)), long+1
		}
		parent += step
		a := model.Action{Rule: rng.IntN(rules), Proc: rng.IntN(procs), Choice: rng.IntN(3)}
		want = append(want, origin{parent: parent, action: packed.Action(a)})
	}
	for _, l := range want {
		log.add(l)
	}
	for i, l := range want {
		if got, err := log.at(uint32(i)); err != nil || got != l {
			t.Fatalf("origin %d: got %+v, %v; want %+v", i, got, err, l)
		}
	}
	size := 0
	for _, b := range log.blocks {
		size += len(b)
	}
	if limit := len(want) + long*(maxEntry-1); size > limit {
		t.Fatalf("%d origins, %d with a long step, take %d bytes; want at most %d", len(want), long, size, limit)
	}
}
