package sweep

import (
	"encoding/json"
	"strings"
	"testing"
)

// A row of more than ClassRowsUpTo classes loses its per-class data in the
// stored table, and says so; smaller rows and the table summarized keep
// theirs.
func TestSummarizedOmitsOnlyLargeRows(t *testing.T) {
	small := &Row{N: 3, Classes: 2, PerClass: make([]Arrangement, 2)}
	large := &Row{N: 8, Classes: ClassRowsUpTo + 1, PerClass: make([]Arrangement, ClassRowsUpTo+1)}
	tb := &Table{Name: "x", Rows: []*Row{small, large}}
	s := tb.Summarized()
	if len(s.Rows[0].PerClass) != 2 || s.Rows[0].ClassesOmitted {
		t.Errorf("small row summarized: %+v", s.Rows[0])
	}
	if s.Rows[1].PerClass != nil || !s.Rows[1].ClassesOmitted || s.Rows[1].Classes != ClassRowsUpTo+1 {
		t.Errorf("large row kept its classes or lost its summary")
	}
	if len(large.PerClass) != ClassRowsUpTo+1 || large.ClassesOmitted {
		t.Error("Summarized changed the table it was given")
	}
	b, err := json.Marshal(s.Rows[1])
	if err != nil || !strings.Contains(string(b), `"per_arrangement_omitted":true`) {
		t.Errorf("JSON of the large row: %s, %v", b, err)
	}
}

// The exhaustive table's plot has the worst, mean and bound curves, one
// point per row without a cycle.
func TestTablePlotHasItsCurves(t *testing.T) {
	b3, b4, m3, m4 := 6.0, 10.0, 5.5, 8.3
	tb := &Table{Name: "x", Rows: []*Row{
		{N: 3, Worst: 6, Best: 3, MeanWorst: &m3, Bound: &b3},
		{N: 4, Worst: 10, Best: 4, MeanWorst: &m4, Bound: &b4},
		{N: 5, Cycles: 1},
	}}
	var w strings.Builder
	tb.WriteSVG(&w)
	svg := w.String()
	for _, want := range []string{">worst<", ">mean worst<", ">bound<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot has no %s curve", want)
		}
	}
	if got := strings.Count(svg, "<circle"); got != 6 {
		t.Errorf("plot has %d points, want 6 (3 curves × 2 rows)", got)
	}
}
