package simulate

import "math/rand/v2"

// generator is run r's source of randomness: a PCG seeded with the
// simulation's seed and the run's number. The runs' generators are thus
// independent of the order in which workers take them up, and of how many
// there are.
func generator(seed uint64, run int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(run)))
}

// arrangement is a uniformly random arrangement of the ids 1..n
// (--random-ids), drawn from gen before the run's first step.
func arrangement(gen *rand.Rand, n int) []int {
	ids := gen.Perm(n)
	for i := range ids {
		ids[i]++
	}
	return ids
}
