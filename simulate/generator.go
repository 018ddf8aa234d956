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

// orientation is a uniformly random orientation assignment of a ring of n
// (one bit a process, as --orientation fixes it), drawn from gen after the
// run's ids and before its first step.
func orientation(gen *rand.Rand, n int) []bool {
	f := make([]bool, n)
	for i := range f {
		f[i] = gen.IntN(2) == 1
	}
	return f
}
