package sweep

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Table is a profile's rows, as results/<name>.json holds them.
type Table struct {
	Name    string `json:"name"`
	Spec    string `json:"spec"`
	Variant string `json:"variant,omitempty"`
	// Drift and Claims are the parameters the spec was built with besides
	// n and the ids.
	Drift   int    `json:"drift,omitempty"`
	Claims  bool   `json:"claims,omitempty"`
	Counted string `json:"counted"`
	Formula string `json:"bound_formula"`
	Ref     string `json:"bound_ref"`
	Rows    []*Row `json:"rows"`
}

func idList(ids []int) string {
	s := make([]string, len(ids))
	for i, x := range ids {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func ratio(r *Row) string {
	if r.Bound == nil || r.Cycles > 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", float64(r.Worst)/(*r.Bound))
}

// causal is "—" for a spec without a View, whose runs show no messages.
func causal(r *Row) string {
	if r.WorstCausal == 0 {
		return "—"
	}
	return fmt.Sprint(r.WorstCausal)
}

func bound(r *Row) string {
	if r.Bound == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *r.Bound)
}

// WriteText prints the rows as a terminal table.
func WriteText(w io.Writer, t *Table) {
	fmt.Fprintf(w, "mc sweep %s%s: %s; bound %s\n", t.Spec, variantSuffix(t.Variant), t.Counted, t.Formula)
	fmt.Fprintf(w, "%3s %7s %7s %10s %6s %5s %10s %9s %10s %7s %7s  %s\n", "n", "arrang.", "classes", "states", "worst", "best", "mean", "sched-dep", "bound", "w/bound", "causal", "worst ids")
	for _, r := range t.Rows {
		if r.Cycles > 0 {
			fmt.Fprintf(w, "%3d %7d %7d %10d  unbounded: %d classes have a cycle; e.g. %s\n", r.N, r.Arrangements, r.Classes, r.States, r.Cycles, firstCycle(r))
			continue
		}
		fmt.Fprintf(w, "%3d %7d %7d %10d %6d %5d %10s %9d %10s %7s %7s  %s\n", r.N, r.Arrangements, r.Classes, r.States, r.Worst, r.Best, r.MeanWorstExact, r.ScheduleDependent, bound(r), ratio(r), causal(r), idList(r.WorstIDs))
	}
}

func firstCycle(r *Row) string {
	for _, a := range r.PerClass {
		if a.Cycle != "" {
			return "ids " + idList(a.IDs) + " " + a.Cycle
		}
	}
	return ""
}

func variantSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " (variant " + v + ")"
}

// WriteJSON prints one JSON object per row, one a line.
func WriteJSON(w io.Writer, t *Table) error {
	enc := json.NewEncoder(w)
	for _, r := range t.Rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// WriteMarkdown writes the table of t as results/README.md shows it.
func WriteMarkdown(w io.Writer, t *Table) {
	fmt.Fprintf(w, "## %s%s\n\nCounted: %s. Bound: %s (%s).\n\n", t.Spec, variantSuffix(t.Variant), t.Counted, t.Formula, t.Ref)
	fmt.Fprintln(w, "| n | arrangements (classes) | states | worst messages | best messages | mean worst over arrangements | schedule-dependent classes | bound | worst/bound | causal depth of worst run | worst ids | best ids |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range t.Rows {
		if r.Cycles > 0 {
			fmt.Fprintf(w, "| %d | %d (%d) | %d | unbounded | — | — | — | %s | — | — | %s | |\n", r.N, r.Arrangements, r.Classes, r.States, bound(r), firstCycle(r))
			continue
		}
		fmt.Fprintf(w, "| %d | %d (%d) | %d | %d | %d | %s | %d | %s | %s | %s | %s | %s |\n", r.N, r.Arrangements, r.Classes, r.States, r.Worst, r.Best, r.MeanWorstExact, r.ScheduleDependent, bound(r), ratio(r), causal(r), idList(r.WorstIDs), idList(r.BestIDs))
	}
	fmt.Fprintln(w)
}
