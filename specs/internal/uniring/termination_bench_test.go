package uniring

import (
	"math/rand/v2"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// BenchmarkSumWeights evaluates the termination measure's sum on states of
// a ring of 10 with up to 20 messages in transit, ⟨elect⟩ three times in
// four: the measure is evaluated on every expanded state of a default run,
// and on every edge to a state already stored (checker/termination).
func BenchmarkSumWeights(b *testing.B) {
	const n = 10
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]int, n)
	for k := range ids {
		ids[k] = n - k
	}
	w := (&Net{IDs: ids, Net: ring.Net{Ring: ring.Ring{N: n}}}).messageWeights()
	states := make([]State, 1000)
	for j := range states {
		states[j] = New(n)
		for range rng.IntN(2 * n) {
			m := Msg{Kind: Kind(rng.IntN(4) / 3), ID: 1 + rng.IntN(n)}
			states[j].send(rng.IntN(n), m, model.ChanSemantics{Kind: model.FIFO})
		}
	}
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += states[i%len(states)].sumWeights(w)
	}
	b.ReportMetric(float64(sum)/float64(b.N), "weight/op")
}
