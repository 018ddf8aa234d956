package sweep

import (
	"io"
	"math"
)

// WriteSVG plots the sampled table: the mean and the worst run seen
// against n, and the bound's curve where the profile has one (writeLogPlot).
func (t *SampledTable) WriteSVG(w io.Writer) {
	ns, low := make([]int, len(t.Rows)), math.Inf(1)
	for i, r := range t.Rows {
		ns[i], low = r.N, math.Min(low, float64(r.Best))
	}
	writeLogPlot(w, ns, []series{
		{"worst seen", func(i int) (float64, bool) { return float64(t.Rows[i].Worst), true }},
		{"mean", func(i int) (float64, bool) { return t.Rows[i].Mean, true }},
		{"bound", func(i int) (float64, bool) { return boundOf(t.Rows[i].Bound) }},
	}, low)
}
