package sweep

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/mc/ring"
)

// classesOf computes the classes cls of ring size n under c.
func classesOf(t *testing.T, c Config, n int, cls []ring.ArrangementClass) []Arrangement {
	t.Helper()
	out := make([]Arrangement, len(cls))
	for i, cl := range cls {
		a, _, err := c.Class(context.Background(), n, cl)
		if err != nil {
			t.Fatalf("%s n=%d ids %v: %v", c.Profile.Name, n, cl.Rep, err)
		}
		out[i] = a
	}
	return out
}

// Every figure of a class computed on its reduced graph (--por) equals the
// full graph's, but the graph's own size and the causal depth of the worst
// witness run, which is that witness's (hs 1,3,2: 12 full, 13 reduced) (docs/sweeps.md, "Partial-order
// reduction and the message counts"), and the row aggregated from them
// too. The phases read off a ghost are the exception: --por leaves them
// out and says so. Every class of n ≤ 4 (hs: n ≤ 3) with -short; without,
// of n ≤ 5 (hs: n ≤ 4, whose n = 5 takes a minute unreduced) and the first
// classes of n = 6 (hs: one class of n = 5).
func TestReducedSweepEqualsFull(t *testing.T) {
	for _, name := range []string{"changroberts", "dkr", "hp", "franklin", "hs"} {
		full := config(t, name)
		reduced := full
		reduced.Reduce = true
		top := 5
		if name == "hs" {
			top = 4
		}
		if testing.Short() {
			top--
		}
		type size struct {
			n    int
			only int // the first classes only (0: all)
		}
		var sizes []size
		for n := 3; n <= top; n++ {
			sizes = append(sizes, size{n, 0})
		}
		if !testing.Short() {
			sizes = append(sizes, size{top + 1, 3})
			if name == "hs" {
				sizes[len(sizes)-1].only = 1
			}
		}
		for _, sz := range sizes {
			cls := ring.ArrangementClasses(sz.n, full.Spec.Facts().Symmetry)
			if sz.only > 0 {
				cls = cls[:sz.only]
			}
			fa, ra := classesOf(t, full, sz.n, cls), classesOf(t, reduced, sz.n, cls)
			skipped := reduced.PhasesSkipped(sz.n) != ""
			for i := range fa {
				f, r := fa[i], ra[i]
				if !r.Reduced || f.Reduced || r.States > f.States {
					t.Errorf("%s ids %v: reduced %v with %d states, full %v with %d", name, f.IDs, r.Reduced, r.States, f.Reduced, f.States)
				}
				if f.Min != r.Min || f.Max != r.Max || f.Bits != r.Bits || f.CausalAll != r.CausalAll || (f.Cycle == "") != (r.Cycle == "") {
					t.Errorf("%s ids %v: full best %d worst %d bits %d chain %d cycle %q; reduced %d %d %d %d %q",
						name, f.IDs, f.Min, f.Max, f.Bits, f.CausalAll, f.Cycle, r.Min, r.Max, r.Bits, r.CausalAll, r.Cycle)
				}
				if skipped && r.Phases != 0 || !skipped && f.Phases != r.Phases {
					t.Errorf("%s ids %v: phases full %d, reduced %d (skipped: %v)", name, f.IDs, f.Phases, r.Phases, skipped)
				}
			}
			fr, rr := full.Aggregate(sz.n, fa), reduced.Aggregate(sz.n, ra)
			if fr.Worst != rr.Worst || fr.Best != rr.Best || fr.MeanWorstExact != rr.MeanWorstExact || fr.MeanBestExact != rr.MeanBestExact ||
				fr.ScheduleDependent != rr.ScheduleDependent || fr.Causal != rr.Causal || !reflect.DeepEqual(fr.LinearTerm, rr.LinearTerm) ||
				!reflect.DeepEqual(fr.WorstIDs, rr.WorstIDs) || !reflect.DeepEqual(fr.BestIDs, rr.BestIDs) {
				t.Errorf("%s n=%d: full row %+v\nreduced row %+v", name, sz.n, fr, rr)
			}
			if !rr.Reduced || (rr.NotComputed != "") != skipped {
				t.Errorf("%s n=%d: reduced row says reduced %v, not computed %q", name, sz.n, rr.Reduced, rr.NotComputed)
			}
		}
	}
}

// A row is the same, witness runs included, for any number of workers.
func TestSweepRowsAreTheSameForAnyWorkers(t *testing.T) {
	for _, reduce := range []bool{false, true} {
		c := config(t, "franklin")
		c.Reduce = reduce
		var rows [][]byte
		var runs [][]any
		for _, w := range []int{1, 2, 3} {
			c.Workers = w
			row, err := Run(context.Background(), c, 4)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, b)
			var witnesses []any
			for _, a := range row.PerClass {
				witnesses = append(witnesses, a.MinRun.Steps, a.MaxRun.Steps)
			}
			runs = append(runs, witnesses)
		}
		for i := 1; i < len(rows); i++ {
			if string(rows[i]) != string(rows[0]) || !reflect.DeepEqual(runs[i], runs[0]) {
				t.Errorf("--por %v: the row with %d workers differs from one worker's:\n%s\n%s", reduce, i+1, rows[i], rows[0])
			}
		}
	}
}

// A profile's ReducedFrom reduces the rows from its size on, and only
// them: they equal the --por rows and say so in the table, the smaller
// rows keep their phases and full state counts.
func TestReducedFromReducesTheLargerRows(t *testing.T) {
	c := config(t, "franklin")
	c.Profile.ReducedFrom = 4
	por := config(t, "franklin")
	por.Reduce = true
	full := config(t, "franklin")
	tab := NewTable("franklin", c)
	for _, n := range []int{3, 4} {
		row, err := Run(context.Background(), c, n)
		if err != nil {
			t.Fatal(err)
		}
		tab.Rows = append(tab.Rows, row)
		want := full
		if n >= 4 {
			want = por
		}
		wantRow, err := Run(context.Background(), want, n)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(row)
		b, _ := json.Marshal(wantRow)
		if string(a) != string(b) {
			t.Errorf("n=%d: row %s\nwant %s", n, a, b)
		}
	}
	if tab.Reduced || tab.Phase == "" || !tab.Claims {
		t.Errorf("table reduced %v, phase %q, claims %v: want a full table with its phases", tab.Reduced, tab.Phase, tab.Claims)
	}
	if !tab.RowClaims(tab.Rows[0]) || tab.RowClaims(tab.Rows[1]) {
		t.Errorf("row claims %v, %v: want the n = 3 row built with claims, the reduced n = 4 row without", tab.RowClaims(tab.Rows[0]), tab.RowClaims(tab.Rows[1]))
	}
	var md strings.Builder
	WriteMarkdown(&md, tab)
	if !strings.Contains(md.String(), "built with --claims (ghost measures) but for the rows on reduced graphs") {
		t.Errorf("heading of\n%s\ndoes not say the reduced rows were built without claims", md.String())
	}
	if !strings.Contains(md.String(), "| 3 | 6 (2) | 208 | 12 |") || !strings.Contains(md.String(), " (reduced graphs) | 24 | 16 |") {
		t.Errorf("table:\n%s\nwant n = 3 full (208 states) and n = 4 marked reduced", md.String())
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| 4 ") && !strings.Contains(line, "| — | 3.00 |") {
			t.Errorf("n = 4 row %q: want its stages \"—\" beside the bound 3.00", line)
		}
	}
}
