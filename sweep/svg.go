package sweep

import (
	"fmt"
	"io"
)

// palette colours the series of the plot.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"}

// WriteSVG plots worst messages against n, one series per table, with the
// y axis linear from 0.
func WriteSVG(w io.Writer, tables []*Table) {
	const width, height, left, right, top, bottom = 640, 400, 60, 220, 20, 40
	minN, maxN, maxY := 1<<30, 0, 1
	for _, t := range tables {
		for _, r := range t.Rows {
			minN, maxN, maxY = min(minN, r.N), max(maxN, r.N), max(maxY, int(r.Worst))
		}
	}
	if maxN == minN {
		maxN++
	}
	x := func(n int) float64 {
		return left + float64(n-minN)*float64(width-left-right)/float64(maxN-minN)
	}
	y := func(v int) float64 {
		return float64(height-bottom) - float64(v)*float64(height-top-bottom)/float64(maxY)
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-right, height-bottom)
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	for n := minN; n <= maxN; n++ {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(n), height-bottom+16, n)
	}
	for _, v := range []int{0, maxY / 2, maxY} {
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%d</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">n</text>`+"\n", (left+width-right)/2, height-6)
	fmt.Fprintf(w, `<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">worst messages</text>`+"\n", height/2, height/2)
	for i, t := range tables {
		c := palette[i%len(palette)]
		pts := ""
		for _, r := range t.Rows {
			if r.Cycles > 0 {
				continue
			}
			pts += fmt.Sprintf("%.1f,%.1f ", x(r.N), y(int(r.Worst)))
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(r.N), y(int(r.Worst)), c)
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s"/>`+"\n", pts, c)
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n", width-right+12, top+18*i, c, width-right+28, top+18*i+10, t.Name)
	}
	fmt.Fprintln(w, "</svg>")
}
