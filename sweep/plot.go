package sweep

import (
	"fmt"
	"io"
	"math"
)

// series is one curve of a plot: a name for the legend and a value per
// ring size (ok false: no point at that n).
type series struct {
	name  string
	value func(i int) (v float64, ok bool)
}

// writeLogPlot plots the series against the ring sizes ns, both axes
// logarithmic: the sampled sizes double, and a quadratic bound would
// flatten the measured n log n curves on a linear axis. It is the one
// drawing of a table's plot, sampled (SampledTable.WriteSVG) or exhaustive
// (Table.WriteSVG). The y axis reaches down to low too (the best case),
// whether or not a curve shows it.
func writeLogPlot(w io.Writer, ns []int, curves []series, low float64) {
	const width, height, left, right, top, bottom = 640, 400, 70, 160, 20, 40
	minN, maxN := ns[0], ns[len(ns)-1]
	lo, hi := math.Max(1, low), 1.0
	for _, s := range curves {
		for i := range ns {
			if v, ok := s.value(i); ok {
				lo, hi = math.Min(lo, math.Max(1, v)), math.Max(hi, v)
			}
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
	for _, n := range ns {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(float64(n)), height-bottom+16, n)
	}
	for v := lo; v <= hi*1.0001; v *= 10 {
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%.0f</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">n (log scale)</text>`+"\n", (left+width-right)/2, height-6)
	fmt.Fprintf(w, `<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">messages (log scale)</text>`+"\n", height/2, height/2)
	for i, s := range curves {
		c := palette[i]
		pts := ""
		for j, n := range ns {
			v, ok := s.value(j)
			if !ok {
				continue
			}
			pts += fmt.Sprintf("%.1f,%.1f ", x(float64(n)), y(v))
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(float64(n)), y(v), c)
		}
		if pts == "" {
			continue
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s"/>`+"\n", pts, c)
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n", width-right+12, top+18*i, c, width-right+28, top+18*i+10, s.name)
	}
	fmt.Fprintln(w, "</svg>")
}

// boundOf is a row's bound as a plot's point.
func boundOf(b *float64) (float64, bool) {
	if b == nil {
		return 0, false
	}
	return *b, true
}
