package sweep

import (
	"fmt"
	"io"
	"math"
)

// WriteSVG plots the sampled table: the mean and the worst run seen
// against n, and the bound's curve where the profile has one, both axes
// logarithmic (the sizes double, and a quadratic bound would flatten the
// measured n log n curves on a linear axis).
func (t *SampledTable) WriteSVG(w io.Writer) {
	const width, height, left, right, top, bottom = 640, 400, 70, 160, 20, 40
	minN, maxN := t.Rows[0].N, t.Rows[len(t.Rows)-1].N
	lo, hi := math.Inf(1), 1.0
	for _, r := range t.Rows {
		lo, hi = math.Min(lo, math.Max(1, float64(r.Best))), math.Max(hi, float64(r.Worst))
		if r.Bound != nil {
			hi = math.Max(hi, *r.Bound)
		}
	}
	if maxN == minN {
		maxN *= 2
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	x := func(n float64) float64 {
		return left + math.Log(n/float64(minN))/math.Log(float64(maxN)/float64(minN))*(width-left-right)
	}
	y := func(v float64) float64 {
		return height - bottom - math.Log(math.Max(v, lo)/lo)/math.Log(hi/lo)*(height-top-bottom)
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-right, height-bottom)
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	for _, r := range t.Rows {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(float64(r.N)), height-bottom+16, r.N)
	}
	for v := lo; v <= hi*1.0001; v *= 10 {
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%.0f</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">n (log scale)</text>`+"\n", (left+width-right)/2, height-6)
	fmt.Fprintf(w, `<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">messages (log scale)</text>`+"\n", height/2, height/2)
	series := []struct {
		name  string
		value func(r *SampledRow) (float64, bool)
	}{
		{"worst seen", func(r *SampledRow) (float64, bool) { return float64(r.Worst), true }},
		{"mean", func(r *SampledRow) (float64, bool) { return r.Mean, true }},
		{"bound", func(r *SampledRow) (float64, bool) {
			if r.Bound == nil {
				return 0, false
			}
			return *r.Bound, true
		}},
	}
	for i, s := range series {
		c := palette[i]
		pts := ""
		for _, r := range t.Rows {
			v, ok := s.value(r)
			if !ok {
				continue
			}
			pts += fmt.Sprintf("%.1f,%.1f ", x(float64(r.N)), y(v))
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(float64(r.N)), y(v), c)
		}
		if pts == "" {
			continue
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s"/>`+"\n", pts, c)
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n", width-right+12, top+18*i, c, width-right+28, top+18*i+10, s.name)
	}
	fmt.Fprintln(w, "</svg>")
}
