package sweep

import (
	"io"
	"math"
)

// WriteSVG plots the exhaustive table, as results/<name>.svg: the worst
// case and the mean of the per-arrangement worst cases against n, and the
// bound's curve where the profile has one (writeLogPlot, the sampled
// tables' drawing). A row whose graphs have a cycle has no point.
func (t *Table) WriteSVG(w io.Writer) {
	var rows []*Row
	low := math.Inf(1)
	for _, r := range t.Rows {
		if r.Cycles == 0 {
			rows = append(rows, r)
			low = math.Min(low, float64(r.Best))
		}
	}
	if len(rows) == 0 {
		return
	}
	ns := make([]int, len(rows))
	for i, r := range rows {
		ns[i] = r.N
	}
	writeLogPlot(w, ns, []series{
		{"worst", func(i int) (float64, bool) { return float64(rows[i].Worst), true }},
		{"mean worst", func(i int) (float64, bool) { return *rows[i].MeanWorst, true }},
		{"bound", func(i int) (float64, bool) { return boundOf(rows[i].Bound) }},
	}, low)
}
